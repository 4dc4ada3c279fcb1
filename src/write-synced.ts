/**
 * Writing a file that must never be seen half written: a new file, created exclusively with its
 * mode, written whole and flushed to disk before anyone links or renames it into place.
 */
import { chmodSync, closeSync, fsyncSync, openSync, writeSync } from 'node:fs';

/** Creates `path` (which must not exist) with `mode`, writes `data` and syncs it to disk. */
export function writeNewFileSynced(path: string, data: string | Uint8Array, mode: number): void {
  const fd = openSync(path, 'wx', mode);
  try {
    writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  // The process umask may have narrowed the mode at creation; set it exactly.
  chmodSync(path, mode);
}
