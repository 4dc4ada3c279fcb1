/**
 * Serialises rotations of one ring across processes (the service and `erx keys rotate` may run at
 * the same time): a lock file created with O_EXCL. Without it two rotations could each read the
 * ring, add a key and write, and the key of the first would vanish with the links it signed.
 */
import { closeSync, openSync, statSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { KeyringError } from './keyring-error.js';

/** File name of the lock inside the ring directory. */
export const LOCK_FILE = 'keyring.lock';

/** How long to wait for the lock, and when a left-over lock counts as abandoned. */
export interface RingLockOptions {
  /** Give up with `KeyringError` `busy` after this many milliseconds (default 5,000). */
  readonly timeoutMs?: number;
  /** A lock file older than this is taken to be left by a crashed process (default 30,000). */
  readonly staleMs?: number;
}

const RETRY_MS = 20;

function errorCode(error: unknown): unknown {
  return error instanceof Error && 'code' in error ? error.code : undefined;
}

// Tries once to create the lock file; false when another process holds it.
function tryAcquire(path: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw new KeyringError('io', error);
  }
  try {
    writeSync(fd, `${process.pid} ${new Date().toISOString()}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

// Removes a lock whose holder evidently died. A rotation takes milliseconds, so a lock that has
// stood for `staleMs` is abandoned; the rare race of two processes breaking the same stale lock
// at once needs a crash mid-rotation first, and is accepted.
function breakIfStale(path: string, staleMs: number): void {
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats && Date.now() - stats.mtimeMs > staleMs) unlinkSync(path);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw new KeyringError('io', error);
  }
}

/** Runs `action` while holding the ring lock of `dir`, waiting for another holder if needed. */
export async function withRingLock<T>(
  dir: string,
  action: () => T,
  options: RingLockOptions = {},
): Promise<T> {
  const { timeoutMs = 5_000, staleMs = 30_000 } = options;
  const path = join(dir, LOCK_FILE);
  const deadline = Date.now() + timeoutMs;
  while (!tryAcquire(path)) {
    breakIfStale(path, staleMs);
    if (Date.now() >= deadline) throw new KeyringError('busy');
    await sleep(RETRY_MS);
  }
  try {
    return action();
  } finally {
    try {
      unlinkSync(path);
    } catch {
      // Already removed as stale by another process: nothing to release.
    }
  }
}
