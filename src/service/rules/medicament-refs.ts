/**
 * The medicament list a prescription keeps (SPEC.md §3): the document's medicaments reduced to
 * what dispensations are validated against. CHMED16A: `{Id, IdType, NbPack, Rep, Subs}`. CHMED23A
 * in the same names: `nbPack`, `isNotSub` as `Subs` 1 or 0, and `reps` as `Reps`, written out as
 * `{t: 1, v: 1}` when the document has none (the IG reads an absent `reps` so), so that the rules
 * never need to know which release an absent field came from.
 */
import type { Chmed23Prescription } from '../../chmed23a/index.js';
import type { PrescriptionDocument } from '../../document/index.js';
import type { MedicamentRef, RepetitionRef } from '../../store/types.js';

type Chmed23Medicament = Chmed23Prescription['meds'][number];

/** IG eMediplan: no repetition object reads as one more redemption. */
const DEFAULT_REPS: RepetitionRef = { t: 1, v: 1 };

function chmed23Ref(m: Chmed23Medicament): MedicamentRef {
  const ref: MedicamentRef = { Id: m.id, IdType: m.idType };
  if (m.nbPack !== undefined) ref.NbPack = m.nbPack;
  ref.Subs = m.isNotSub === true ? 1 : 0;
  const reps = m.reps as RepetitionRef | undefined;
  ref.Reps = reps === undefined ? { ...DEFAULT_REPS } : repetitionRef(reps);
  return ref;
}

/** Only the fields the rules read: the document's object is open. */
function repetitionRef(reps: RepetitionRef): RepetitionRef {
  const ref: RepetitionRef = { t: reps.t };
  if (reps.v !== undefined) ref.v = reps.v;
  if (reps.d !== undefined) ref.d = reps.d;
  if (reps.u !== undefined) ref.u = reps.u;
  return ref;
}

/** Reduces the medicaments of a valid document to what the store keeps. */
export function medicamentRefs(document: PrescriptionDocument): MedicamentRef[] {
  if (document.format === 'CHMED23A') return document.doc.meds.map(chmed23Ref);
  return document.doc.Medicaments.map((m) => {
    const ref: MedicamentRef = { Id: m.Id, IdType: m.IdType };
    if (m.NbPack !== undefined) ref.NbPack = m.NbPack;
    if (m.Rep !== undefined) ref.Rep = m.Rep;
    if (m.Subs !== undefined) ref.Subs = m.Subs;
    return ref;
  });
}
