/**
 * Client authentication against the store: the secret is checked with scrypt under the pepper
 * (`./secret-hash.ts`), and an unknown client costs the same scrypt run, so timing does not tell
 * which client ids exist. A failure
 * budget per address and client id is consulted first (`./failure-budget.ts`): past it the attempt
 * is refused without hashing.
 */
import { ErxError } from '../errors.js';
import type { ClientRow, Store } from '../store/types.js';
import type { FailureBudget } from './failure-budget.js';
import type { SecretHashes } from './secret-hash.js';

/** What client authentication works with. */
export interface ClientAuthentication {
  readonly store: Store;
  readonly secrets: SecretHashes;
  /** Absent: no failure budget (tools, tests). */
  readonly budget?: FailureBudget;
}

/** Presented client credentials and where they came from. */
export interface ClientAttempt {
  clientId: string | undefined;
  clientSecret: string | undefined;
  /** The caller's address (undefined: a call from inside erx). */
  address?: string;
}

function invalidClient(): ErxError {
  // RFC 6749 §5.2 names this failure `invalid_client`; the client message never says which part.
  return new ErxError('unauthorized', 'Client authentication failed.', {
    causeCode: 'invalid_client',
  });
}

/**
 * The client `clientId` if `clientSecret` is its secret; throws `unauthorized` otherwise,
 * `too_many_requests` past the failure budget, `service_unavailable` when hashing is at capacity.
 */
export async function authenticateClient(
  auth: ClientAuthentication,
  attempt: ClientAttempt,
): Promise<ClientRow> {
  const { clientId, clientSecret, address } = attempt;
  if (!clientId || !clientSecret) throw invalidClient();
  const budgeted = auth.budget?.begin(address, clientId);
  let wrong = false;
  try {
    const client = await auth.store.clients.get(clientId);
    // An unknown client is checked against no hash: the same scrypt run and MAC, never a match.
    const identity = client ?? { clientId, role: 'prescriber' as const, sub: '', name: '' };
    wrong = !(await auth.secrets.verify(clientSecret, client?.secretHash, identity, address));
    if (wrong || client === undefined) throw invalidClient();
    return client;
  } finally {
    budgeted?.end(wrong);
  }
}
