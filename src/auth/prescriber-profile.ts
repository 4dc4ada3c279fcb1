/**
 * A prescriber client's profile: who prescribes and from which practice, as the desk prefills it
 * into the document (CHMED16A `HcPerson`, `HcOrg`, `Auth`). Kept with the client in the store as
 * JSON text; not part of what the secret hash is bound to (docs/decisions.md), so changing it
 * never invalidates a secret. It vouches for nothing: the document names the prescriber as typed.
 */

/** The practice a prescriber issues from (CHMED16A `HcOrg`). */
export interface PracticeAddress {
  name: string;
  street: string;
  /** 4 or 5 digits, as CHMED16A `HcOrg.Zip`. */
  zip: string;
  city: string;
  phone?: string;
}

/** A prescriber's profile (CHMED16A `HcPerson` and `Auth`, and `HcOrg` when a practice is set). */
export interface PrescriberProfile {
  firstName: string;
  lastName: string;
  /** 13 digits with a valid GS1 check digit. */
  gln: string;
  /** ZSR number normalised to one capital letter and six digits (`A123456`). */
  zsr?: string;
  practice?: PracticeAddress;
}

/** The profile as the store keeps it. */
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
  const [firstName, lastName, gln] = [text(v.firstName), text(v.lastName), text(v.gln)];
  if (firstName === undefined || lastName === undefined || gln === undefined) return undefined;
  const zsr = text(v.zsr);
  const practice = practiceOf(v.practice);
  return {
    firstName,
    lastName,
    gln,
    ...(zsr === undefined ? {} : { zsr }),
    ...(practice === undefined ? {} : { practice }),
  };
}
