/**
 * The prescriber's form as a CHMED23A prescription (IG eMediplan; the profile of
 * `src/chmed23a/profile.ts`), when the operator chose that release (`ERX_DOCUMENT_FORMAT`): the
 * same fields as CHMED16A under their CHMED23A names, the dosage as the structured daily posology
 * (`po` type 1, morning to night), repetitions as a count (`reps` `{t: 1, v}`), `isNotSub` for
 * no substitution, the insurance card number as the patient's identifier. The service's
 * violations name CHMED23A pointers; {@link formPointer} places them at the form's fields, whose
 * pointers are CHMED16A's.
 */
import { chmed23View } from '../chmed/document-view-23.js';
import { documentView } from '../chmed/document-view.js';
import type { DocumentView } from '../chmed/document-view.js';
import type { Draft, MedicamentDraft } from './draft.js';
import { buildDocument, dose, filled, hasDosage, numberField } from './draft.js';

function medicament(m: MedicamentDraft): Record<string, unknown> {
  const out: Record<string, unknown> = { idType: Number(m.idType) };
  if (m.id.trim() !== '') out.id = m.id.trim();
  const pos: Record<string, unknown> = {};
  if (m.doses.some((d) => d.trim() !== '')) pos.po = { t: 1, ds: m.doses.map(dose) };
  if (m.until !== '') pos.dtTo = m.until;
  if (m.unit.trim() !== '') pos.unit = m.unit.trim();
  if (m.instructions.trim() !== '') pos.appInstr = m.instructions.trim();
  if (hasDosage(m) || Object.keys(pos).length > 0) {
    // Without doses the posology is its free text (or none): `po` is required in a posology.
    out.pos = [{ po: { t: 2, text: m.instructions.trim() }, ...pos }];
  }
  const packs = numberField(m.packs);
  if (packs !== undefined) out.nbPack = packs;
  const repeats = numberField(m.repeats);
  // An absent `reps` means one more redemption (IG eMediplan): the count is always written.
  out.reps = { t: 1, v: repeats ?? 0 };
  out.isNotSub = !m.substitutionAllowed;
  return out;
}

/**
 * The CHMED23A document for `draft`, with a fresh unguessable `id` and `dt` now. Not typed as a
 * valid document: it may lack required fields, which the service then names.
 */
export function buildChmed23Document(draft: Draft, id: string, now: Date): Record<string, unknown> {
  const { FName, LName, BDt, Gender, Street, Zip, City, CardNumber } = draft.patient;
  const patient: Record<string, unknown> = {
    ...renamed(filled({ FName, LName, BDt, Street, Zip, City })),
    ...(Gender === '' ? {} : { gender: Number(Gender) }),
    ...(CardNumber.trim() === '' ? {} : { ids: [{ type: 1, val: CardNumber.trim() }] }),
  };
  const doc: Record<string, unknown> = {
    id,
    medType: 3,
    auth: 1,
    dt: now.toISOString(),
    patient,
    hcPerson: renamed(filled(draft.person)),
    hcOrg: renamed(filled(draft.org)),
    meds: draft.medicaments.map(medicament),
  };
  if (draft.remarks.trim() !== '') doc.rmk = draft.remarks.trim();
  return doc;
}

/** CHMED16A field names as CHMED23A writes them, where lowering the first letter is not all. */
const NAMES_23: Readonly<Record<string, string>> = { BDt: 'bdt' };

/** `fields` under their CHMED23A names (`FName` → `fName`, `BDt` → `bdt`). */
function renamed(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(fields).map(([k, v]) => [NAMES_23[k] ?? k[0]!.toLowerCase() + k.slice(1), v]),
  );
}

/** CHMED23A pointer segments as the form's CHMED16A pointers name them. */
const SEGMENTS_16: Readonly<Record<string, string>> = {
  meds: 'Medicaments',
  bdt: 'BDt',
  reps: 'Rep',
  isNotSub: 'Subs',
};

/**
 * The form's pointer for a CHMED23A violation's pointer: `/patient/bdt` → `/Patient/BDt`,
 * `/patient/ids/0/val` → `/Patient/CardNumber`, `/meds/0/pos/0/unit` → `/Medicaments/0/Unit`
 * (the form has one posology per medicament; its dosage fields are `Pos/0/…`).
 */
export function formPointer(pointer: string): string {
  if (/^\/patient\/ids(\/|$)/.test(pointer)) return '/Patient/CardNumber';
  const pos = /^\/meds\/(\d+)\/pos\/\d+\/(unit|appInstr)$/.exec(pointer);
  if (pos) return `/Medicaments/${pos[1]}/${pos[2] === 'unit' ? 'Unit' : 'AppInstr'}`;
  const reps = /^\/meds\/(\d+)\/reps\//.exec(pointer);
  if (reps) return `/Medicaments/${reps[1]}/Rep`;
  const daily = /^\/meds\/(\d+)\/pos\/(\d+)\/po\/ds(\/\d+)?$/.exec(pointer);
  if (daily) return `/Medicaments/${daily[1]}/Pos/${daily[2]}/D${daily[3] ?? ''}`;
  return pointer
    .split('/')
    .map((s) => SEGMENTS_16[s] ?? (/^[a-z]/.test(s) ? s[0]!.toUpperCase() + s.slice(1) : s))
    .join('/');
}

/** The release the desk composes in (`GET /ePrescription/me` `document_format`). */
export type DocumentFormat = 'CHMED16A' | 'CHMED23A';

/** A document composed from the form: what is sent, how it is shown, where violations go. */
export interface Composed {
  readonly doc: Record<string, unknown>;
  readonly view: DocumentView;
  /** The form's pointer for a violation's pointer into `doc`. */
  readonly pointer: (path: string) => string;
}

/** The document for `draft` in `format`, with `id` and `dt` now. */
export function composeDocument(
  format: DocumentFormat,
  draft: Draft,
  id: string,
  now: Date,
): Composed {
  if (format === 'CHMED23A') {
    const doc = buildChmed23Document(draft, id, now);
    return { doc, view: chmed23View(doc), pointer: formPointer };
  }
  const doc = buildDocument(draft, id, now);
  return { doc, view: documentView(doc), pointer: (path) => path };
}
