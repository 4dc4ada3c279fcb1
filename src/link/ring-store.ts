/**
 * The key ring on disk: one file, `keyring.json`, in a directory of its own (mode 0700), the file
 * itself mode 0600 as it holds the current private key. Every write goes to a temporary file that
 * is then renamed over the ring, so a reader in another process sees the old ring or the new one,
 * never half of one.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fstatSync,
  fsyncSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
} from 'node:fs';
import { join } from 'node:path';
import { writeNewFileSynced } from '../write-synced.js';
import type { KeyRecord } from './key-material.js';
import { KeyringError } from './keyring-error.js';
import { parseRing, serializeRing } from './ring-format.js';

/** File name of the ring inside its directory. */
export const RING_FILE = 'keyring.json';

// A ring holds a few hundred bytes per key; anything far larger is not a ring.
const MAX_RING_BYTES = 1024 * 1024;

/** Identifies one version of the ring file: a rename always brings a new inode. */
export interface RingStamp {
  readonly ino: number;
  readonly size: number;
  readonly mtimeMs: number;
}

/** A ring as read from disk, with the stamp of the file it came from. */
export interface StoredRing {
  readonly keys: KeyRecord[];
  readonly stamp: RingStamp;
}

function io(error: unknown): KeyringError {
  return error instanceof KeyringError ? error : new KeyringError('io', error);
}

function isNotFound(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT';
}

function stampOf(stats: { ino: number; size: number; mtimeMs: number }): RingStamp {
  return { ino: stats.ino, size: stats.size, mtimeMs: stats.mtimeMs };
}

/** Creates the ring directory with mode 0700 if it does not exist yet. */
export function ensureRingDir(dir: string): void {
  try {
    const created = mkdirSync(dir, { recursive: true, mode: 0o700 });
    // The umask may have narrowed the mode further; set it exactly on what was created here.
    if (created !== undefined) chmodSync(dir, 0o700);
  } catch (error) {
    throw io(error);
  }
}

/** The stamp of the ring file now, or undefined when there is no ring file. */
export function statRing(dir: string): RingStamp | undefined {
  try {
    const stats = statSync(join(dir, RING_FILE), { throwIfNoEntry: false });
    return stats && stampOf(stats);
  } catch (error) {
    throw io(error);
  }
}

/** Reads and checks the ring, or undefined when there is no ring file. */
export function readRing(dir: string): StoredRing | undefined {
  let fd: number;
  try {
    fd = openSync(join(dir, RING_FILE), 'r');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw io(error);
  }
  try {
    // Stamp and content from the same open file, so they always belong together.
    const stamp = stampOf(fstatSync(fd));
    if (stamp.size > MAX_RING_BYTES) throw new KeyringError('corrupt', 'ring file too large');
    return { keys: parseRing(readFileSync(fd, 'utf8')), stamp };
  } catch (error) {
    throw io(error);
  } finally {
    closeSync(fd);
  }
}

// Writes `text` to a new temporary file (mode 0600) in `dir`, flushed to disk; returns its path.
function writeTemporary(dir: string, text: string): string {
  const path = join(dir, `.${RING_FILE}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  writeNewFileSynced(path, text, 0o600);
  return path;
}

// Makes a rename or link durable; not every file system can fsync a directory, which is harmless.
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // best effort
  }
}

// Removes a temporary file that was not renamed into place; it may already be gone.
function discard(path: string | undefined): void {
  if (path === undefined) return;
  try {
    unlinkSync(path);
  } catch {
    // nothing left to clean
  }
}

/** Replaces the ring atomically (temporary file + rename). */
export function writeRing(dir: string, keys: readonly KeyRecord[]): void {
  const text = serializeRing(keys);
  let temporary: string | undefined;
  try {
    temporary = writeTemporary(dir, text);
    renameSync(temporary, join(dir, RING_FILE));
    temporary = undefined;
    syncDir(dir);
  } catch (error) {
    discard(temporary);
    throw io(error);
  }
}

/**
 * Writes the first ring unless one exists: a hard link never replaces an existing file, so of two
 * processes starting on an empty directory exactly one creates the ring. Returns whether it did.
 */
export function createRing(dir: string, keys: readonly KeyRecord[]): boolean {
  const text = serializeRing(keys);
  let temporary: string | undefined;
  try {
    temporary = writeTemporary(dir, text);
    linkSync(temporary, join(dir, RING_FILE));
    syncDir(dir);
    return true;
  } catch (error) {
    if (error instanceof Error && 'code' in error && error.code === 'EEXIST') return false;
    throw io(error);
  } finally {
    // After a link the ring has its own name for the file; the temporary name goes either way.
    discard(temporary);
  }
}
