/**
 * Validation of a prescriber profile as an operator gives it (`erx clients add|profile`): merged
 * over the stored one for an update, then checked whole, every violation listed at once under
 * `/profile` (as `./client-input.ts` does for the registration).
 */
import { gs1CheckDigitOk } from '../catalog/gtin.js';
import type { Violation } from '../errors.js';
import { checkText } from './check-text.js';
import type { PracticeAddress, PrescriberProfile } from './prescriber-profile.js';

/**
 * A change to a {@link PrescriberProfile} as an operator types it (the command line's options,
 * flat as they are): every field optional, so an update names only what changes. An empty string
 * removes the field (the whole practice, once none of its fields is left).
 */
export interface ProfileInput {
  firstName?: string;
  lastName?: string;
  gln?: string;
  /** `A123456` or `A1234.56` (the dot as printed on ZSR cards); stored without the dot. */
  zsr?: string;
  practiceName?: string;
  street?: string;
  zip?: string;
  city?: string;
  phone?: string;
}

type Field = keyof ProfileInput;

/** Every field of a {@link ProfileInput}, in the order the profile lists them. */
export const PROFILE_INPUT_FIELDS: readonly Field[] = [
  'firstName',
  'lastName',
  'gln',
  'zsr',
  'practiceName',
  'street',
  'zip',
  'city',
  'phone',
];
const PRACTICE_FIELDS: readonly Field[] = ['practiceName', 'street', 'zip', 'city', 'phone'];

const MAX_TEXT = 200;
const MAX_PHONE = 40;
const GLN = /^[0-9]{13}$/;
// One letter, four digits, an optional dot, two digits: the printed and the plain form.
const ZSR = /^([A-Za-z])([0-9]{4})\.?([0-9]{2})$/;
const ZIP = /^[0-9]{4,5}$/;

/** True when `input` names no field at all. */
export function isEmptyProfileInput(input: ProfileInput): boolean {
  return PROFILE_INPUT_FIELDS.every((f) => input[f] === undefined);
}

/** The ZSR number of `text` as stored (`A123456`), or undefined when it is not one. */
export function normaliseZsr(text: string): string | undefined {
  const m = ZSR.exec(text.trim());
  return m ? `${m[1]!.toUpperCase()}${m[2]}${m[3]}` : undefined;
}

function flatten(p: PrescriberProfile | undefined): ProfileInput {
  if (p === undefined) return {};
  const { practice } = p;
  return {
    firstName: p.first_name,
    lastName: p.last_name,
    gln: p.gln,
    zsr: p.zsr,
    practiceName: practice?.name,
    street: practice?.street,
    zip: practice?.zip,
    city: practice?.city,
    phone: practice?.phone,
  };
}

// A field the profile needs and the input (with the stored profile) leaves out.
function checkRequired(value: string | undefined, path: string, out: Violation[]): boolean {
  if (value === undefined) out.push({ path, code: 'required', message: 'is required', params: {} });
  return value !== undefined;
}

function checkGln(gln: string, path: string, out: Violation[]): void {
  if (!GLN.test(gln)) {
    out.push({
      path,
      code: 'gln_digits',
      message: 'must be exactly 13 digits',
      params: { digits: 13 },
    });
  } else if (!gs1CheckDigitOk(gln)) {
    out.push({
      path,
      code: 'invalid',
      message: 'the check digit does not match (GS1 mod 10): please check the GLN',
      params: {},
    });
  }
}

function checkPractice(v: ProfileInput, path: string, out: Violation[]): PracticeAddress {
  const name = v.practiceName ?? '';
  const street = v.street ?? '';
  const zip = v.zip ?? '';
  const city = v.city ?? '';
  const phone = v.phone ?? '';
  if (checkRequired(v.practiceName, `${path}/name`, out)) {
    checkText(name, `${path}/name`, 1, MAX_TEXT, out);
  }
  if (checkRequired(v.street, `${path}/street`, out)) {
    checkText(street, `${path}/street`, 1, MAX_TEXT, out);
  }
  if (checkRequired(v.zip, `${path}/zip`, out) && !ZIP.test(zip)) {
    out.push({
      path: `${path}/zip`,
      code: 'zip_digits',
      message: 'must be 4 or 5 digits',
      params: { min: 4, max: 5 },
    });
  }
  if (checkRequired(v.city, `${path}/city`, out)) {
    checkText(city, `${path}/city`, 1, MAX_TEXT, out);
  }
  if (phone !== '') checkText(phone, `${path}/phone`, 1, MAX_PHONE, out);
  return { name, street, zip, city, ...(phone === '' ? {} : { phone }) };
}

/**
 * The profile `input` makes of `base` (undefined: none yet), or undefined when it removes every
 * field; violations are added to `out` with pointers under `path` (e.g. `/profile/gln`).
 */
export function checkProfileInput(
  input: ProfileInput,
  base: PrescriberProfile | undefined,
  path: string,
  out: Violation[],
): PrescriberProfile | undefined {
  const merged = flatten(base);
  for (const f of PROFILE_INPUT_FIELDS) {
    const value = input[f];
    if (value !== undefined) merged[f] = value.trim() === '' ? undefined : value.trim();
  }
  if (PROFILE_INPUT_FIELDS.every((f) => merged[f] === undefined)) return undefined;
  const { firstName, lastName, gln } = merged;
  if (checkRequired(firstName, `${path}/firstName`, out)) {
    checkText(firstName ?? '', `${path}/firstName`, 1, MAX_TEXT, out);
  }
  if (checkRequired(lastName, `${path}/lastName`, out)) {
    checkText(lastName ?? '', `${path}/lastName`, 1, MAX_TEXT, out);
  }
  if (checkRequired(gln, `${path}/gln`, out)) checkGln(gln ?? '', `${path}/gln`, out);
  const zsr = merged.zsr === undefined ? undefined : normaliseZsr(merged.zsr);
  if (merged.zsr !== undefined && zsr === undefined) {
    out.push({
      path: `${path}/zsr`,
      code: 'pattern',
      message: 'must be one letter and six digits, e.g. A123456 or A1234.56',
      params: { example: 'A123456' },
    });
  }
  const hasPractice = PRACTICE_FIELDS.some((f) => merged[f] !== undefined);
  const practice = hasPractice ? checkPractice(merged, `${path}/practice`, out) : undefined;
  return {
    first_name: firstName ?? '',
    last_name: lastName ?? '',
    gln: gln ?? '',
    ...(zsr === undefined ? {} : { zsr }),
    ...(practice === undefined ? {} : { practice }),
  };
}
