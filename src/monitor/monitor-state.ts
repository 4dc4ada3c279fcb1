/**
 * What `erx log monitor` remembers between runs: the log's key and the last checkpoint it verified,
 * as JSON in a file written atomically (a new file synced, then renamed over the old one), so a
 * crash leaves the previous state or the new one, never half of either.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, renameSync, rmSync } from 'node:fs';
import { decodeBase64, HASH_SIZE } from '../tlog/index.js';
import { writeNewFileSynced } from '../write-synced.js';
import { MonitorError } from './monitor-error.js';

/** The monitor's state file. */
export interface MonitorState {
  version: 1;
  /** The verifier key trusted for the log's checkpoints. */
  key: string;
  /** The last verified checkpoint: its tree size, base64 root and the note as fetched. */
  size: number;
  root: string;
  note: string;
  /**
   * Leaves whose entries were checked, from the first: fewer than `size` when a run stopped at its
   * work bound and left the rest to the next run. Absent: all `size` were.
   */
  checked?: number;
  /** A chained entry was seen: a later entry that is the event hash alone is refused. */
  chained?: true;
  /** When it was verified, ISO 8601. */
  checkedAt: string;
}

function isState(value: unknown): value is MonitorState {
  const s = value as Partial<MonitorState> | null;
  if (typeof s !== 'object' || s === null || s.version !== 1) return false;
  const root = typeof s.root === 'string' ? decodeBase64(s.root) : undefined;
  return (
    typeof s.key === 'string' &&
    Number.isSafeInteger(s.size) &&
    (s.size ?? -1) >= 0 &&
    root?.length === HASH_SIZE &&
    typeof s.note === 'string' &&
    (s.checked === undefined ||
      (Number.isSafeInteger(s.checked) && s.checked >= 0 && s.checked <= (s.size ?? -1))) &&
    (s.chained === undefined || s.chained === true) &&
    typeof s.checkedAt === 'string'
  );
}

/** The state in `path`; undefined when there is no such file (the first run). */
export function readMonitorState(path: string): MonitorState | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new MonitorError('bad_state', `${path}: ${String(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new MonitorError('bad_state', `${path} is not JSON`);
  }
  if (!isState(value)) throw new MonitorError('bad_state', `${path} is not a monitor state`);
  return value;
}

/** Replaces the state in `path` atomically. */
export function writeMonitorState(path: string, state: MonitorState): void {
  const temporary = `${path}.${randomUUID()}.tmp`;
  try {
    writeNewFileSynced(temporary, `${JSON.stringify(state, null, 2)}\n`, 0o644);
    renameSync(temporary, path);
  } finally {
    rmSync(temporary, { force: true });
  }
}
