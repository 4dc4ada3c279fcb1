/**
 * The medicament list a prescription keeps (SPEC.md §3): the document's medicaments reduced to
 * `{Id, IdType, NbPack, Rep, Subs}`, the part dispensations are validated against.
 */
import type { Prescription } from '../chmed16a/index.js';
import type { MedicamentRef } from '../store/types.js';

/** Reduces the medicaments of a valid document to what the store keeps. */
export function medicamentRefs(doc: Prescription): MedicamentRef[] {
  return doc.Medicaments.map((m) => {
    const ref: MedicamentRef = { Id: m.Id, IdType: m.IdType };
    if (m.NbPack !== undefined) ref.NbPack = m.NbPack;
    if (m.Rep !== undefined) ref.Rep = m.Rep;
    if (m.Subs !== undefined) ref.Subs = m.Subs;
    return ref;
  });
}
