/**
 * The signed-in client as `GET /ePrescription/me` answers it: the caller's role, actor id and name
 * from its token, and a prescriber's profile when the embedded token service holds one (the route
 * adds the configured document release).
 */
import type { SignedInClient } from '../api/me.js';
import type { Principal } from './principal.js';
import type { PrescriberProfile } from './prescriber-profile.js';

/** Reads the profile of a client id (the embedded token service's); absent: none is kept. */
export type ProfileReader = (clientId: string) => Promise<PrescriberProfile | undefined>;

/**
 * Who `principal` is. The profile is read for prescribers only: a pharmacist's row cannot hold
 * one, and is not read for nothing on every sign-in.
 */
export async function whoAmI(
  principal: Principal,
  readProfile: ProfileReader | undefined,
): Promise<Omit<SignedInClient, 'document_format'>> {
  const profile =
    principal.role === 'prescriber' ? await readProfile?.(principal.clientId) : undefined;
  return {
    client_id: principal.clientId,
    role: principal.role,
    sub: principal.sub,
    name: principal.name,
    ...(profile === undefined ? {} : { profile }),
  };
}
