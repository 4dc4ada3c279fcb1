/**
 * TypeScript shape of a CHMED16A prescription document (seed §2.1). A value has this type only
 * after {@link validatePrescription} found no violation. Nested objects are open (SPEC.md §4).
 */

/** The patient (seed §2.1 Patient). */
export interface Patient {
  FName: string;
  LName: string;
  /** Birth date; its format is not fixed by the seed. */
  BDt: string;
  Gender?: 1 | 2;
  Street?: string;
  Zip?: string;
  Ids?: unknown[];
  [field: string]: unknown;
}

/** The prescribing health-care person (seed §2.1 HcPerson). */
export interface HcPerson {
  Gln: string;
  FName: string;
  LName: string;
  Zsr?: string;
  [field: string]: unknown;
}

/** The prescribing organisation (seed §2.1 HcOrg). */
export interface HcOrg {
  Name: string;
  NameAffix?: string;
  Street: string;
  Zip: string;
  City: string;
  Country?: string;
  Zsr?: string;
  Phone?: string;
  Email?: string;
  [field: string]: unknown;
}

/** One dosage period of a medicament (seed §2.1 Pos). */
export interface Pos {
  /** Doses, 1 to 4 numbers (morning, noon, evening, night in eMediplan). */
  D: number[];
  /** Last day, `YYYY-MM-DD`. */
  DtTo?: string;
  [field: string]: unknown;
}

/** One prescribed medicament (seed §2.1 Medicament). */
export interface Medicament {
  Id: string;
  IdType: 1 | 2 | 3;
  Pos?: Pos[];
  Unit?: string;
  AppInstr?: string;
  /** Repetitions, 0 to 24. */
  Rep?: number;
  NbPack?: number;
  Subs?: 0 | 1;
  [field: string]: unknown;
}

/** A CHMED16A prescription document (seed §2.1); no other top-level properties exist. */
export interface Prescription {
  rev?: number;
  Patient: Patient;
  HcPerson?: HcPerson;
  HcOrg?: HcOrg;
  Medicaments: Medicament[];
  MedType: 3;
  Id: string;
  Auth: string;
  Zsr?: string;
  Dt: string;
  Rmk?: string;
  PFields?: unknown[];
  PSchema?: string;
}
