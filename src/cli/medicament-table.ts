/**
 * The table `erx verify` writes to stderr beside the answer when it has medicaments (the variant
 * with transactions, SPEC.md §10): packages prescribed, dispensed and remaining per medicament,
 * whether it may be substituted, until when the prescription holds and who has locked it. stdout
 * stays the JSON answer alone: scripts parse it. Text from the answer is escaped
 * (`./terminal-text.ts`): it may hold what a prescriber wrote.
 */
import type { MedicamentStatus, VerifyFull } from '../api/index.js';
import { terminalText } from './terminal-text.js';

/** What the table shows of an answer. */
type Shown = Pick<VerifyFull, 'medicaments' | 'expires_at' | 'expired' | 'locked_by'>;

const HEADER = ['id', 'prescribed', 'dispensed', 'remaining', 'substitution'];
/** Columns read as text, left-aligned; the package counts are right-aligned. */
const TEXT_COLUMNS: ReadonlySet<number> = new Set([0, 4]);

function cells(m: MedicamentStatus): string[] {
  return [
    terminalText(String(m.id)),
    String(m.prescribed),
    String(m.dispensed),
    String(m.remaining),
    m.substitution_allowed ? 'allowed' : 'not allowed',
  ];
}

function hasMedicaments(answer: unknown): answer is Shown {
  return (
    typeof answer === 'object' &&
    answer !== null &&
    Array.isArray((answer as Partial<Shown>).medicaments)
  );
}

/** The table for a verify answer; undefined when the answer has no medicaments. */
export function medicamentTable(answer: unknown): string | undefined {
  if (!hasMedicaments(answer)) return undefined;
  const rows = [HEADER, ...answer.medicaments.map(cells)];
  const widths = HEADER.map((_, c) => Math.max(...rows.map((row) => row[c]!.length)));
  const lines = rows.map((row) =>
    row
      .map((cell, c) => (TEXT_COLUMNS.has(c) ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!)))
      .join('  ')
      .trimEnd(),
  );
  const expires = terminalText(String(answer.expires_at));
  lines.push(`expires_at: ${expires} (${answer.expired ? 'expired' : 'not expired'})`);
  if (answer.locked_by !== undefined) lines.push(`locked_by: ${terminalText(answer.locked_by)}`);
  return `${lines.join('\n')}\n`;
}
