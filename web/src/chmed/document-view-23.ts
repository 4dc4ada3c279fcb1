/**
 * A CHMED23A document (IG eMediplan, camelCase) read into the display view the page shows for
 * either release: `pos` with its structured posology, `reps` as a count of repetitions or a
 * duration, `isNotSub` as substitution, `nbPack` as packages.
 */
import type { DocumentView, DosageView, MedicamentView } from './document-view.js';
import { list, number, record, text } from './fields.js';
import { posologyView } from './posology-view.js';

function dosage(value: unknown): DosageView {
  const p = record(value) ?? {};
  const po = posologyView(p.po);
  return {
    doses: po.kind === 'daily' ? po.doses : [],
    from: text(p.dtFrom),
    to: text(p.dtTo),
    po: po.kind === 'daily' ? undefined : po,
    reserve: p.inRes === true,
    meal: number(p.relMeal),
  };
}

function medicament(value: unknown): MedicamentView {
  const m = record(value) ?? {};
  const pos = list(m.pos).map((p) => record(p) ?? {});
  const reps = record(m.reps);
  const count = reps && (reps.t === 1 || reps.t === 3) ? number(reps.v) : undefined;
  const d = reps && (reps.t === 2 || reps.t === 3) ? number(reps.d) : undefined;
  const u = reps && number(reps.u);
  return {
    id: text(m.id) ?? '',
    idType: number(m.idType),
    unit: pos.map((p) => text(p.unit)).find(Boolean),
    instructions: pos.map((p) => text(p.appInstr)).find(Boolean),
    reason: text(m.rsn),
    // Absent `reps` is one repetition (IG eMediplan).
    repeats: reps === undefined ? 1 : count,
    repeatFor: d !== undefined && u !== undefined ? { count: d, unit: u } : undefined,
    packs: number(m.nbPack) ?? 1,
    substitutionAllowed: m.isNotSub !== true,
    dosages: pos.map(dosage),
  };
}

/** Reads a decoded CHMED23A document into its display view. */
export function chmed23View(doc: unknown): DocumentView {
  const d = record(doc) ?? {};
  const p = record(d.patient) ?? {};
  const hp = record(d.hcPerson);
  const org = record(d.hcOrg);
  return {
    id: text(d.id),
    issued: text(d.dt),
    patient: {
      firstName: text(p.fName),
      lastName: text(p.lName),
      birthDate: text(p.bdt),
      gender: number(p.gender),
      street: text(p.street),
      zip: text(p.zip),
      city: text(p.city),
    },
    prescriber: hp && { firstName: text(hp.fName), lastName: text(hp.lName), gln: text(hp.gln) },
    organisation: org && {
      name: text(org.name),
      affix: undefined,
      street: text(org.street),
      zip: text(org.zip),
      city: text(org.city),
      phone: undefined,
      email: undefined,
    },
    medicaments: list(d.meds).map(medicament),
    remarks: text(d.rmk),
  };
}
