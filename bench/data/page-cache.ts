/**
 * Reading a data set's SQLite files once, so a figure starts with them in the kernel's page cache,
 * as a server whose memory holds its database runs. The reference machine's kernel gives back
 * cached file pages a few MB a second even with most of its memory free, so a scale set copied a
 * few minutes earlier is partly back on disk; each read SQLite then makes of it blocks the event
 * loop (docs/decisions.md, "The bench measures like with like").
 */
import { closeSync, existsSync, openSync, readSync } from 'node:fs';
import { sqlitePath } from '../../src/server/open-store.js';

const CHUNK = 8 * 1024 * 1024;

/** Reads `file` from start to end; answers the bytes read. */
export function readThrough(file: string): number {
  const buffer = Buffer.allocUnsafe(CHUNK);
  const fd = openSync(file, 'r');
  try {
    let total = 0;
    for (;;) {
      const read = readSync(fd, buffer, 0, CHUNK, total);
      if (read === 0) return total;
      total += read;
    }
  } finally {
    closeSync(fd);
  }
}

/** Reads the SQLite database of `dataDir` and its WAL, if any; answers the bytes read. */
export function warmDatabase(dataDir: string): number {
  const database = sqlitePath(dataDir);
  return [database, `${database}-wal`]
    .filter((file) => existsSync(file))
    .reduce((sum, file) => sum + readThrough(file), 0);
}
