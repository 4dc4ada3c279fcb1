/**
 * The signed-in client (`GET /ePrescription/me`): role, actor id, name, and a prescriber's profile
 * when the operator set one, for the desk to prefill the prescriber's fields.
 */
import type { SignedInClient } from '../../../src/api/index.js';
import { callJson } from './http.js';
import type { Token } from './http.js';

export type { PrescriberProfile, SignedInClient } from '../../../src/api/index.js';

/** Who `token` stands for, as the service knows it. */
export function fetchMe(token: Token): Promise<SignedInClient> {
  return callJson('/ePrescription/me', { method: 'GET', token });
}
