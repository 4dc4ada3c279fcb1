/**
 * The prescriber's form as plain text fields, and the CHMED16A document built from it
 * (seed §2.1). Empty fields are left out rather than sent empty, so that a missing required
 * field comes back from the service as "is required" at its own JSON pointer.
 */
import type { Medicament } from '../../../src/chmed16a/types.js';
import { parseDecimal } from './decimal.js';

export interface MedicamentDraft {
  id: string;
  idType: string;
  unit: string;
  /** Morning, noon, evening, night, as typed (`0,5` or `0.5`). */
  doses: [string, string, string, string];
  until: string;
  instructions: string;
  packs: string;
  repeats: string;
  substitutionAllowed: boolean;
}

export interface Draft {
  patient: {
    FName: string;
    LName: string;
    BDt: string;
    Gender: string;
    Street: string;
    Zip: string;
    City: string;
    /** The insurance card number: CHMED23A's patient identifier (`ids` type 1); not in CHMED16A. */
    CardNumber: string;
  };
  person: { FName: string; LName: string; Gln: string; Zsr: string };
  org: {
    Name: string;
    NameAffix: string;
    Street: string;
    Zip: string;
    City: string;
    Phone: string;
    Email: string;
    Zsr: string;
  };
  auth: string;
  medicaments: MedicamentDraft[];
  remarks: string;
}

/** An empty medicament: GTIN, substitution allowed (CHMED16A `Subs` 0, the default). */
export function emptyMedicament(): MedicamentDraft {
  return {
    id: '',
    idType: '2',
    unit: '',
    doses: ['', '', '', ''],
    until: '',
    instructions: '',
    packs: '1',
    repeats: '0',
    substitutionAllowed: true,
  };
}

/** An empty form; `keep` carries the prescriber and practice over to the next prescription. */
export function emptyDraft(keep?: Draft): Draft {
  return {
    patient: {
      FName: '',
      LName: '',
      BDt: '',
      Gender: '',
      Street: '',
      Zip: '',
      City: '',
      CardNumber: '',
    },
    person: keep ? { ...keep.person } : { FName: '', LName: '', Gln: '', Zsr: '' },
    org: keep
      ? { ...keep.org }
      : { Name: '', NameAffix: '', Street: '', Zip: '', City: '', Phone: '', Email: '', Zsr: '' },
    auth: keep?.auth ?? '',
    medicaments: [emptyMedicament()],
    remarks: '',
  };
}

type Strings = Record<string, string>;

/** The non-empty, trimmed fields of `fields`. */
export function filled(fields: Strings): Strings {
  const out: Strings = {};
  for (const [key, value] of Object.entries(fields)) {
    if (value.trim() !== '') out[key] = value.trim();
  }
  return out;
}

// A number field: empty is absent; anything else is sent as a number (the input allows only
// numbers), so the service judges ranges.
export function numberField(value: string): number | undefined {
  return value.trim() === '' ? undefined : Number(value);
}

// A dose as typed: a decimal comma or point is a number; empty is 0 (D keeps all four places so
// morning to night stay in position); anything else is sent as typed, for the service to name.
export function dose(text: string): number {
  if (text.trim() === '') return 0;
  return parseDecimal(text) ?? (text.trim() as unknown as number);
}

/** True when the medicament has a dosage (`Pos`), which makes its `Unit` required (seed §2.1). */
export function hasDosage(m: MedicamentDraft): boolean {
  return m.doses.some((d) => d.trim() !== '') || m.until !== '';
}

function medicament(m: MedicamentDraft): Partial<Medicament> {
  const out: Partial<Medicament> = { IdType: Number(m.idType) as Medicament['IdType'] };
  if (m.id.trim() !== '') out.Id = m.id.trim();
  if (hasDosage(m)) {
    const pos: NonNullable<Medicament['Pos']>[number] = { D: m.doses.map(dose) };
    if (m.until !== '') pos.DtTo = m.until;
    out.Pos = [pos];
  }
  if (m.unit.trim() !== '') out.Unit = m.unit.trim();
  if (m.instructions.trim() !== '') out.AppInstr = m.instructions.trim();
  const packs = numberField(m.packs);
  if (packs !== undefined) out.NbPack = packs;
  const repeats = numberField(m.repeats);
  if (repeats !== undefined) out.Rep = repeats;
  out.Subs = m.substitutionAllowed ? 0 : 1;
  return out;
}

/**
 * The document for `draft`, with a fresh unguessable `Id` (SPEC.md §4) and `Dt` now. Not typed
 * as a valid document: it may lack required fields, which the service then names.
 */
export function buildDocument(draft: Draft, id: string, now: Date): Record<string, unknown> {
  // The card number is CHMED23A's patient identifier; CHMED16A's `Ids` are not written.
  const { FName, LName, BDt, Gender, Street, Zip, City } = draft.patient;
  const patient = { FName, LName, BDt, Street, Zip, City };
  const doc: Record<string, unknown> = {
    Id: id,
    MedType: 3,
    Dt: now.toISOString(),
    Patient: { ...filled(patient), ...(Gender === '' ? {} : { Gender: Number(Gender) }) },
    HcPerson: filled(draft.person),
    HcOrg: filled(draft.org),
    Medicaments: draft.medicaments.map(medicament),
  };
  if (draft.auth.trim() !== '') doc.Auth = draft.auth.trim();
  if (draft.remarks.trim() !== '') doc.Rmk = draft.remarks.trim();
  return doc;
}

/**
 * True when the person has started a prescription: a patient field, a medicament or the remarks
 * differ from an empty form. The prescriber and practice (often filled from the profile) do not
 * count.
 */
export function isStarted(draft: Draft): boolean {
  const blank = emptyMedicament();
  const patientTyped = Object.values(draft.patient).some((v) => v.trim() !== '');
  const medTyped = draft.medicaments.some(
    (m) =>
      m.id.trim() !== '' ||
      m.unit.trim() !== '' ||
      m.doses.some((d) => d.trim() !== '') ||
      m.until !== '' ||
      m.instructions.trim() !== '' ||
      m.packs !== blank.packs ||
      m.repeats !== blank.repeats ||
      m.substitutionAllowed !== blank.substitutionAllowed,
  );
  return patientTyped || medTyped || draft.medicaments.length > 1 || draft.remarks.trim() !== '';
}
