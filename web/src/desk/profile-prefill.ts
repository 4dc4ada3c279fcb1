/**
 * The prescriber's fields of a draft filled from the signed-in prescriber's profile: the person
 * (`HcPerson`), the author GLN (`Auth`, the same GLN, so it is no longer typed twice) and the
 * practice (`HcOrg`). Only empty fields are filled: what the person typed meanwhile stays.
 */
import type { PrescriberProfile } from '../api/me.js';
import type { Draft } from './draft.js';

type Fields = Record<string, string>;

// Each field of `from` that is empty in `into` and given in `from`.
function fillEmpty<T extends Fields>(into: T, from: Partial<Record<keyof T, string>>): T {
  const out: Fields = { ...into };
  for (const [key, value] of Object.entries(from)) {
    if (value !== undefined && value !== '' && (out[key] ?? '') === '') out[key] = value;
  }
  return out as T;
}

/** `draft` with its empty prescriber fields filled from `profile`. */
export function prefillFromProfile(draft: Draft, profile: PrescriberProfile): Draft {
  const practice = profile.practice;
  return {
    ...draft,
    person: fillEmpty(draft.person, {
      FName: profile.first_name,
      LName: profile.last_name,
      Gln: profile.gln,
      Zsr: profile.zsr,
    }),
    auth: draft.auth === '' ? profile.gln : draft.auth,
    org:
      practice === undefined
        ? draft.org
        : fillEmpty(draft.org, {
            Name: practice.name,
            Street: practice.street,
            Zip: practice.zip,
            City: practice.city,
            Phone: practice.phone,
          }),
  };
}
