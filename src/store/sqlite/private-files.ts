/**
 * The database file and its `-wal` and `-shm` companions are readable by erx's user only, like
 * the keys beside them (issue #39, 7): the file is created 0600 before SQLite opens it, and SQLite
 * gives its companions the mode of the database file. Files an older erx left readable to others
 * are narrowed to 0600 when the store opens.
 */
import { chmodSync, closeSync, openSync, statSync } from 'node:fs';

/** The mode of the database and its companions. */
export const DATABASE_FILE_MODE = 0o600;

/** The files SQLite keeps for the database at `file`, the database first. */
export function databaseFiles(file: string): readonly string[] {
  return [file, `${file}-wal`, `${file}-shm`];
}

/** Creates `file` 0600 when it does not exist, and narrows it and its companions to 0600. */
export function makeDatabasePrivate(file: string): void {
  // 'a' creates the file (empty, which SQLite takes as a new database) or leaves it as it is.
  closeSync(openSync(file, 'a', DATABASE_FILE_MODE));
  for (const path of databaseFiles(file)) {
    const mode = modeOf(path);
    if (mode !== undefined && (mode & 0o777) !== DATABASE_FILE_MODE) {
      chmodSync(path, DATABASE_FILE_MODE);
    }
  }
}

function modeOf(path: string): number | undefined {
  try {
    return statSync(path).mode;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
