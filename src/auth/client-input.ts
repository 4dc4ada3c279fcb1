/**
 * Validation of a client registration (`erx clients add`, SPEC.md §2 "token service"): every
 * violation is listed, as SPEC.md §4 does for documents, so an operator fixes all at once.
 */
import { ErxError } from '../errors.js';
import type { Violation } from '../errors.js';
import type { Role } from '../store/types.js';
import { checkText } from './check-text.js';
import type { PrescriberProfile } from './prescriber-profile.js';
import { checkProfileInput, isEmptyProfileInput } from './profile-input.js';
import type { ProfileInput } from './profile-input.js';
import { isRole } from './role.js';

/** What an operator gives to register a client (`erx clients add`). */
export interface AddClientInput {
  clientId: string;
  /** Omitted: a random secret is generated and returned once. */
  secret?: string;
  /** `prescriber` or `pharmacist`; checked at run time since it comes from the command line. */
  role: string;
  name: string;
  description?: string;
  /** Actor id (e.g. `HIN|pharma1`), answered as `sub` and written as event `actor`. */
  sub: string;
  /** A prescriber's profile (`./prescriber-profile.ts`); only a prescriber may have one. */
  profile?: ProfileInput;
}

/** A registration that passed {@link validateClientInput}. */
export interface ValidClientInput {
  clientId: string;
  secret: string | undefined;
  role: Role;
  name: string;
  description: string;
  sub: string;
  profile?: PrescriberProfile;
}

const MAX_ID = 200;
const MAX_NAME = 200;
const MAX_DESCRIPTION = 1000;
const MIN_SECRET = 12;
const MAX_SECRET = 512;
// Ids travel in curl commands, form fields, Basic credentials and issuer labels: visible ASCII.
const ID = /^[\x21-\x7e]+$/;
const SECRET = /^[\x21-\x7e]+$/;

function checkId(value: string, path: string, out: Violation[]): void {
  if (value.length === 0 || value.length > MAX_ID || !ID.test(value)) {
    out.push({
      path,
      code: 'visible_ascii',
      message: `must be 1 to ${MAX_ID} visible ASCII characters`,
      params: { min: 1, max: MAX_ID },
    });
  }
}

// A profile is the prescriber's only: a pharmacy's documents name no prescriber.
function checkClientProfile(
  input: AddClientInput,
  role: string,
  out: Violation[],
): PrescriberProfile | undefined {
  if (input.profile === undefined || isEmptyProfileInput(input.profile)) return undefined;
  if (role !== 'prescriber') {
    out.push({
      path: '/profile',
      code: 'not_allowed',
      message: 'only a prescriber client has a profile',
      params: { role: 'prescriber' },
    });
    return undefined;
  }
  return checkProfileInput(input.profile, undefined, '/profile', out);
}

/** Checks a registration and returns it typed; throws `bad_request` listing every violation. */
export function validateClientInput(input: AddClientInput): ValidClientInput {
  const violations: Violation[] = [];
  checkId(input.clientId, '/clientId', violations);
  checkId(input.sub, '/sub', violations);
  checkText(input.name, '/name', 1, MAX_NAME, violations);
  checkText(input.description ?? '', '/description', 0, MAX_DESCRIPTION, violations);
  const role = input.role;
  if (!isRole(role)) {
    violations.push({
      path: '/role',
      code: 'one_of',
      message: 'must be prescriber or pharmacist',
      params: { values: ['prescriber', 'pharmacist'] },
    });
  }
  const secret = input.secret;
  if (secret !== undefined) {
    const fits = secret.length >= MIN_SECRET && secret.length <= MAX_SECRET;
    if (!fits || !SECRET.test(secret)) {
      violations.push({
        path: '/secret',
        code: 'visible_ascii',
        params: { min: MIN_SECRET, max: MAX_SECRET },
        message: `must be ${MIN_SECRET} to ${MAX_SECRET} visible ASCII characters`,
      });
    }
  }
  const profile = checkClientProfile(input, role, violations);
  if (violations.length > 0 || !isRole(role)) {
    throw new ErxError('bad_request', 'The client registration is invalid.', { violations });
  }
  return {
    clientId: input.clientId,
    secret,
    role,
    name: input.name,
    description: input.description ?? '',
    sub: input.sub,
    ...(profile === undefined ? {} : { profile }),
  };
}
