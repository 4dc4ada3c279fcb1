/**
 * Values no prescription can carry, refused at the field before anything is sent: packages an
 * integer from 1 to 10,000 (SPEC.md §10), repeats 0 to 24 (SPEC.md §4), doses numbers of 0 or
 * more, dates real calendar dates. Unlike the plausibility warnings, these block issuing; the
 * service checks them again.
 */
import type { Violation } from '../api/types.js';
import type { MessageKey } from '../i18n/messages-en.js';
import { parseDecimal } from './decimal.js';
import type { Draft } from './draft.js';

/** The bounds of `NbPack` (SPEC.md §10) and `Rep` (SPEC.md §4). */
export const PACKS = { min: 1, max: 10_000 } as const;
export const REPEATS = { min: 0, max: 24 } as const;

/** Years a date field accepts: anything else is a slip of the keyboard (`20255`, `0202`). */
const YEARS = { min: 1900, max: 2999 } as const;

/** What is wrong with a field, said by the desk (not by the service). */
export type FieldProblem = 'packs' | 'repeats' | 'dose' | 'date';

const PROBLEM_KEYS: Readonly<Record<FieldProblem, MessageKey>> = {
  packs: 'check.wholeNumber',
  repeats: 'check.wholeNumber',
  dose: 'check.dose',
  date: 'check.date',
};

// A whole number as typed: digits only (a number field gives `-1`, `1.5` or `1e3` as typed).
function wholeNumberIn(text: string, bounds: { min: number; max: number }): boolean {
  const trimmed = text.trim();
  if (!/^\d{1,6}$/.test(trimmed)) return false;
  const n = Number(trimmed);
  return n >= bounds.min && n <= bounds.max;
}

/** True when `text` is a calendar date `YYYY-MM-DD` with a year a prescription can name. */
export function isRealDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < YEARS.min || year > YEARS.max) return false;
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function problem(path: string, kind: FieldProblem, params: Violation['params'] = {}): Violation {
  // `invalid` is the service's code for "is invalid"; `problem` says which desk wording applies.
  return { path, code: 'invalid', message: 'is invalid', params: { ...params, problem: kind } };
}

/**
 * The fields of `draft` holding values no prescription can carry, as violations at their
 * pointers; `unreadable` are the pointers of fields whose browser control holds text it cannot
 * read as its type (a half-typed date, letters in a number field).
 */
export function fieldProblems(draft: Draft, unreadable: readonly string[] = []): Violation[] {
  const out: Violation[] = [];
  const bad = new Set(unreadable);
  const date = (path: string, value: string): void => {
    if (bad.has(path) || (value !== '' && !isRealDate(value))) out.push(problem(path, 'date'));
  };
  date('/Patient/BDt', draft.patient.BDt);
  draft.medicaments.forEach((m, i) => {
    const at = `/Medicaments/${i}`;
    m.doses.forEach((text, k) => {
      if (text.trim() !== '' && parseDecimal(text) === undefined) {
        out.push(problem(`${at}/Pos/0/D/${k}`, 'dose'));
      }
    });
    date(`${at}/Pos/0/DtTo`, m.until);
    if (bad.has(`${at}/NbPack`) || !wholeNumberIn(m.packs, PACKS)) {
      out.push(problem(`${at}/NbPack`, 'packs', PACKS));
    }
    if (bad.has(`${at}/Rep`) || (m.repeats.trim() !== '' && !wholeNumberIn(m.repeats, REPEATS))) {
      out.push(problem(`${at}/Rep`, 'repeats', REPEATS));
    }
  });
  return out;
}

/** The desk's wording of a violation from {@link fieldProblems}, or undefined for another one. */
export function fieldProblemKey(v: Violation): MessageKey | undefined {
  const kind = v.params['problem'];
  return typeof kind === 'string' && Object.hasOwn(PROBLEM_KEYS, kind)
    ? PROBLEM_KEYS[kind as FieldProblem]
    : undefined;
}
