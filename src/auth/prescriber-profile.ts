/**
 * A prescriber client's profile: who prescribes and from which practice, as the desk prefills it
 * into the document (CHMED16A `HcPerson`, `HcOrg`, `Auth`). Kept with the client in the store as
 * JSON text; not part of what the secret hash is bound to (docs/decisions.md), so changing it
 * never invalidates a secret. It vouches for nothing: the document names the prescriber as typed.
 *
 * One shape everywhere: the API's `PrescriberProfile` (`src/api/me.ts`), which the store keeps as
 * its JSON. Rows written before it kept the same fields with camel-case names (`firstName`,
 * `lastName`); those are read all the same.
 */

import type { PracticeAddress, PrescriberProfile } from '../api/me.js';

export type { PracticeAddress, PrescriberProfile } from '../api/me.js';

/** The profile as the store keeps it: its JSON. */
export function profileText(profile: PrescriberProfile): string {
  return JSON.stringify(profile);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function practiceOf(value: unknown): PracticeAddress | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const p = value as Record<string, unknown>;
  const [name, street, zip, city] = [text(p.name), text(p.street), text(p.zip), text(p.city)];
  if (name === undefined || street === undefined || zip === undefined || city === undefined) {
    return undefined;
  }
  const phone = text(p.phone);
  return { name, street, zip, city, ...(phone === undefined ? {} : { phone }) };
}

/**
 * The profile of stored text; undefined when there is none or the column holds something else
 * (edited by hand): the desk then starts empty, as without a profile.
 */
export function profileFromText(stored: string | undefined): PrescriberProfile | undefined {
  if (stored === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  // Rows written before the one shape name the person's fields in camel case.
  const first = text(v.first_name) ?? text(v.firstName);
  const last = text(v.last_name) ?? text(v.lastName);
  const gln = text(v.gln);
  if (first === undefined || last === undefined || gln === undefined) return undefined;
  const zsr = text(v.zsr);
  const practice = practiceOf(v.practice);
  return {
    first_name: first,
    last_name: last,
    gln,
    ...(zsr === undefined ? {} : { zsr }),
    ...(practice === undefined ? {} : { practice }),
  };
}
