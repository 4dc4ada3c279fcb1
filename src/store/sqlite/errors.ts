/**
 * How the SQLite store reads the errors of better-sqlite3: which unique constraint a violation
 * names, so a race the database settles is answered like the PostgreSQL store's (`../races.ts`).
 */

/** Whether `error` is a constraint violation naming `what` (`table.` or `table.column`). */
export function isUniqueViolation(error: unknown, what: string): boolean {
  return (
    error instanceof Error &&
    (error as { code?: string }).code?.startsWith('SQLITE_CONSTRAINT') === true &&
    error.message.includes(what)
  );
}
