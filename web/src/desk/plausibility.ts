/**
 * What a person should see before issuing, though the service accepts it: doses as typed with a
 * decimal comma or point, implausibly high doses, GLN and GTIN check digits (GS1 mod 10), a GTIN
 * of the wrong length, a birth date in the future, "take until" before the prescription date and
 * the shape of an e-mail address. Each shows beside its field; all but the e-mail's shape and a
 * dose that is no number (refused at the field, `field-checks.ts`) are confirmed once before
 * issuing ({@link toConfirm}).
 */
import type { MessageKey } from '../i18n/messages-en.js';
import { gs1CheckDigitOk } from '../../../src/catalog/gtin.js';
import { parseDecimal } from './decimal.js';
import type { Draft } from './draft.js';

export { parseDecimal } from './decimal.js';

/** A dose above this many units in one time of day is confirmed before issuing. */
export const DOSE_LIMIT = 10;

// One GS1 check digit for the page and the service's catalogue import.
export { gs1CheckDigitOk } from '../../../src/catalog/gtin.js';

export interface Warning {
  key: MessageKey;
  params?: Readonly<Record<string, string | number>>;
}

/** A dose above {@link DOSE_LIMIT}: which medicament and time of day, and the dose as typed. */
export interface HighDose {
  index: number;
  slot: number;
  dose: number;
  text: string;
  unit: string;
}

/** Every dose of `draft` above {@link DOSE_LIMIT}. */
export function highDoses(draft: Draft): HighDose[] {
  const out: HighDose[] = [];
  draft.medicaments.forEach((m, index) =>
    m.doses.forEach((text, slot) => {
      const dose = parseDecimal(text);
      if (dose !== undefined && dose > DOSE_LIMIT) {
        out.push({ index, slot, dose, text: text.trim(), unit: m.unit.trim() });
      }
    }),
  );
  return out;
}

const GLN = /^\d{13}$/;
const GTIN = /^(?:\d{8}|\d{12,14})$/;
// Something@something.tld without spaces: the shape only, never whether it exists.
const EMAIL = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/;

function add(map: Map<string, Warning[]>, pointer: string, warning: Warning): void {
  map.set(pointer, [...(map.get(pointer) ?? []), warning]);
}

/** The warnings of `draft` by JSON pointer; `today` is the prescription date (`YYYY-MM-DD`). */
export function plausibility(draft: Draft, today: string): Map<string, Warning[]> {
  const out = new Map<string, Warning[]>();
  if (draft.patient.BDt !== '' && draft.patient.BDt > today) {
    add(out, '/Patient/BDt', { key: 'warn.birthFuture' });
  }
  for (const [pointer, value] of [
    ['/HcPerson/Gln', draft.person.Gln.trim()],
    ['/Auth', draft.auth.trim()],
  ] as const) {
    if (GLN.test(value) && !gs1CheckDigitOk(value)) add(out, pointer, { key: 'warn.gln' });
  }
  const email = draft.org.Email.trim();
  if (email !== '' && !EMAIL.test(email)) add(out, '/HcOrg/Email', { key: 'warn.email' });
  draft.medicaments.forEach((m, i) => {
    const at = `/Medicaments/${i}`;
    const id = m.id.trim();
    if (m.idType === '2' && id !== '') {
      if (!GTIN.test(id)) add(out, `${at}/Id`, { key: 'warn.gtinLength' });
      else if (!gs1CheckDigitOk(id)) add(out, `${at}/Id`, { key: 'warn.gtin' });
    }
    if (m.until !== '' && m.until < today) add(out, `${at}/Pos/0/DtTo`, { key: 'warn.untilPast' });
    m.doses.forEach((text, k) => {
      if (text.trim() === '') return;
      const dose = parseDecimal(text);
      const pointer = `${at}/Pos/0/D/${k}`;
      if (dose === undefined) add(out, pointer, { key: 'warn.doseNumber' });
      else if (dose > DOSE_LIMIT)
        add(out, pointer, { key: 'warn.doseHigh', params: { limit: DOSE_LIMIT } });
    });
  });
  return out;
}

/** The warnings confirmed before issuing; the others only show beside their field. */
const CONFIRMED: ReadonlySet<MessageKey> = new Set<MessageKey>([
  'warn.birthFuture',
  'warn.gln',
  'warn.gtin',
  'warn.gtinLength',
  'warn.untilPast',
]);

/** A warning the prescriber confirms before issuing, at its field's pointer. */
export interface ToConfirm {
  pointer: string;
  warning: Warning;
}

/**
 * The warnings of `draft` the prescriber confirms once before issuing, in the form's order; high
 * doses are listed apart ({@link highDoses}).
 */
export function toConfirm(draft: Draft, today: string): ToConfirm[] {
  const out: ToConfirm[] = [];
  for (const [pointer, warnings] of plausibility(draft, today)) {
    for (const warning of warnings) {
      if (CONFIRMED.has(warning.key)) out.push({ pointer, warning });
    }
  }
  return out;
}

/** Today in the page's time zone as `YYYY-MM-DD` (the prescription's date). */
export function localDate(now: Date): string {
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}
