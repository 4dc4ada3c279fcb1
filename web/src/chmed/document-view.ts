/**
 * A decoded document made safe to display. The page shows documents it has not validated (the
 * service does that), so every field is read defensively: a wrong type is treated as absent,
 * never rendered as an object.
 */
import { list, number, record, text } from './fields.js';
import type { PoView, Span } from './posology-view.js';

export interface DosageView {
  /** Doses in eMediplan order: morning, noon, evening, night (absent entries undefined). */
  readonly doses: readonly (number | undefined)[];
  readonly from: string | undefined;
  readonly to: string | undefined;
  /** CHMED23A: a structured posology other than daily doses (then `doses` is empty). */
  readonly po?: PoView | undefined;
  /** CHMED23A `inRes`: taken as needed. */
  readonly reserve?: boolean | undefined;
  /** CHMED23A `relMeal`: 1 before, 2 during, 3 after a meal. */
  readonly meal?: number | undefined;
}

export interface MedicamentView {
  readonly id: string;
  readonly idType: number | undefined;
  readonly unit: string | undefined;
  readonly instructions: string | undefined;
  readonly reason: string | undefined;
  readonly repeats: number | undefined;
  /** CHMED23A `reps` of a duration: how long it may be redeemed. */
  readonly repeatFor?: Span | undefined;
  readonly packs: number | undefined;
  /** CHMED16A `Subs`: 0 (or absent) substitution allowed, 1 not allowed. */
  readonly substitutionAllowed: boolean;
  readonly dosages: readonly DosageView[];
}

export interface PersonView {
  readonly firstName: string | undefined;
  readonly lastName: string | undefined;
}

export interface DocumentView {
  readonly id: string | undefined;
  readonly issued: string | undefined;
  readonly patient: PersonView & {
    readonly birthDate: string | undefined;
    readonly gender: number | undefined;
    readonly street: string | undefined;
    readonly zip: string | undefined;
    readonly city: string | undefined;
  };
  readonly prescriber: (PersonView & { readonly gln: string | undefined }) | undefined;
  readonly organisation:
    | {
        readonly name: string | undefined;
        readonly affix: string | undefined;
        readonly street: string | undefined;
        readonly zip: string | undefined;
        readonly city: string | undefined;
        readonly phone: string | undefined;
        readonly email: string | undefined;
      }
    | undefined;
  readonly medicaments: readonly MedicamentView[];
  readonly remarks: string | undefined;
}

function dosage(value: unknown): DosageView {
  const pos = record(value) ?? {};
  return {
    doses: list(pos.D).slice(0, 4).map(number),
    from: text(pos.DtFrom),
    to: text(pos.DtTo),
  };
}

function medicament(value: unknown): MedicamentView {
  const m = record(value) ?? {};
  return {
    id: text(m.Id) ?? '',
    idType: number(m.IdType),
    unit: text(m.Unit),
    instructions: text(m.AppInstr),
    reason: text(m.TkgRsn),
    repeats: number(m.Rep),
    packs: number(m.NbPack),
    substitutionAllowed: m.Subs !== 1,
    dosages: list(m.Pos).map(dosage),
  };
}

/** Reads a decoded CHMED16A document into its display view. */
export function documentView(doc: unknown): DocumentView {
  const d = record(doc) ?? {};
  const p = record(d.Patient) ?? {};
  const hp = record(d.HcPerson);
  const org = record(d.HcOrg);
  return {
    id: text(d.Id),
    issued: text(d.Dt),
    patient: {
      firstName: text(p.FName),
      lastName: text(p.LName),
      birthDate: text(p.BDt),
      gender: number(p.Gender),
      street: text(p.Street),
      zip: text(p.Zip),
      city: text(p.City),
    },
    prescriber: hp && { firstName: text(hp.FName), lastName: text(hp.LName), gln: text(hp.Gln) },
    organisation: org && {
      name: text(org.Name),
      affix: text(org.NameAffix),
      street: text(org.Street),
      zip: text(org.Zip),
      city: text(org.City),
      phone: text(org.Phone),
      email: text(org.Email),
    },
    medicaments: list(d.Medicaments).map(medicament),
    remarks: text(d.Rmk),
  };
}
