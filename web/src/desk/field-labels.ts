/**
 * Which form field a violation's JSON pointer names, as a label for the summary: the fields of
 * the form and their pointers into the CHMED16A document (seed §2.1).
 */
import type { MessageKey } from '../i18n/messages-en.js';

/** The page's `t` (`useI18n()`), as this module needs it (free of the browser). */
type Translate = (key: MessageKey, params?: Readonly<Record<string, string | number>>) => string;

export interface FieldSpec {
  name: string;
  label: MessageKey;
  required?: boolean;
  type?: 'text' | 'date' | 'email' | 'tel';
  inputMode?: 'numeric' | 'text' | 'email' | 'tel';
  autoComplete?: string;
  maxLength?: number;
  /** What the field is for, said under its label. */
  hint?: MessageKey;
}

export const PATIENT_FIELDS: readonly FieldSpec[] = [
  { name: 'FName', label: 'desk.firstName', required: true },
  { name: 'LName', label: 'desk.lastName', required: true },
  { name: 'BDt', label: 'desk.birthDate', required: true, type: 'date' },
  { name: 'Street', label: 'desk.street' },
  { name: 'Zip', label: 'desk.zip', inputMode: 'numeric', maxLength: 5 },
  { name: 'City', label: 'desk.city' },
];

/** The insurance card number, asked only when the desk composes CHMED23A (its patient `ids`). */
export const CARD_NUMBER_FIELD: FieldSpec = {
  name: 'CardNumber',
  label: 'desk.cardNumber',
  required: true,
  inputMode: 'numeric',
  maxLength: 20,
};

export const PERSON_FIELDS: readonly FieldSpec[] = [
  { name: 'FName', label: 'desk.firstName', required: true },
  { name: 'LName', label: 'desk.lastName', required: true },
  {
    name: 'Gln',
    label: 'desk.gln',
    required: true,
    inputMode: 'numeric',
    maxLength: 13,
    hint: 'desk.glnHint',
  },
  { name: 'Zsr', label: 'desk.zsr', maxLength: 7 },
];

export const ORG_FIELDS: readonly FieldSpec[] = [
  { name: 'Name', label: 'desk.orgName', required: true },
  { name: 'NameAffix', label: 'desk.orgAffix' },
  { name: 'Street', label: 'desk.street', required: true },
  { name: 'Zip', label: 'desk.zip', required: true, inputMode: 'numeric', maxLength: 5 },
  { name: 'City', label: 'desk.city', required: true },
  { name: 'Phone', label: 'desk.phone', type: 'tel', inputMode: 'tel' },
  { name: 'Email', label: 'desk.email', type: 'email', inputMode: 'email' },
  { name: 'Zsr', label: 'desk.zsr', maxLength: 7 },
];

const SECTIONS: Readonly<Record<string, [MessageKey, readonly FieldSpec[]]>> = {
  Patient: [
    'desk.patient',
    [...PATIENT_FIELDS, { name: 'Gender', label: 'desk.gender' }, CARD_NUMBER_FIELD],
  ],
  HcPerson: ['desk.person', PERSON_FIELDS],
  HcOrg: ['desk.org', ORG_FIELDS],
};

const MEDICAMENT_FIELDS: Readonly<Record<string, MessageKey>> = {
  Id: 'desk.medId',
  IdType: 'desk.idType',
  Unit: 'desk.unit',
  AppInstr: 'desk.instructions',
  NbPack: 'desk.packs',
  Rep: 'desk.repeats',
  Subs: 'desk.subsAllowed',
  Pos: 'desk.dosage',
};

const DOSE_SLOTS: readonly MessageKey[] = ['med.morning', 'med.noon', 'med.evening', 'med.night'];

function medicamentLabel(index: number, rest: string, t: Translate): string {
  const prefix = t('desk.med', { n: index + 1 });
  const dose = /^Pos\/\d+\/D(?:\/(\d))?$/.exec(rest);
  if (dose) {
    const slot = dose[1] === undefined ? undefined : DOSE_SLOTS[Number(dose[1])];
    return `${prefix}, ${t('desk.dosage')}${slot ? ` (${t(slot)})` : ''}`;
  }
  if (/^Pos\/\d+\/DtTo$/.test(rest)) return `${prefix}, ${t('desk.until')}`;
  const key = MEDICAMENT_FIELDS[rest.split('/')[0] ?? ''];
  return key ? `${prefix}, ${t(key)}` : prefix;
}

// Fields of the document the form fills itself (SPEC.md §4), named all the same.
const DOCUMENT_FIELDS: Readonly<Record<string, MessageKey>> = {
  Auth: 'desk.auth',
  Rmk: 'desk.remarks',
  Id: 'field.id',
  Dt: 'field.date',
  MedType: 'field.medType',
  Zsr: 'desk.zsr',
};

/**
 * A readable name for the field at `pointer`: the form's label, or for a part of the document the
 * form has no field for, the technical details in words (never the pointer itself).
 */
export function labelFor(pointer: string, t: Translate): string {
  const [, top = '', ...rest] = pointer.split('/');
  const field = Object.hasOwn(DOCUMENT_FIELDS, top) ? DOCUMENT_FIELDS[top] : undefined;
  if (field !== undefined) return t(field);
  if (top === 'Medicaments') {
    const index = Number(rest[0]);
    if (rest.length === 0 || !Number.isInteger(index)) return t('desk.meds');
    return medicamentLabel(index, rest.slice(1).join('/'), t);
  }
  const section = SECTIONS[top];
  if (section) {
    const [sectionKey, fields] = section;
    const field = fields.find((f) => f.name === rest[0]);
    return field ? `${t(sectionKey)}, ${t(field.label)}` : t(sectionKey);
  }
  return pointer === '' ? t('desk.title') : t('field.document');
}
