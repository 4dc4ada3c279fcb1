/**
 * Client authentication against the store: the secret is checked with scrypt, and an unknown
 * client costs the same scrypt run, so timing does not tell which client ids exist.
 */
import { ErxError } from '../errors.js';
import type { ClientRow, Store } from '../store/types.js';
import { generateSecret, hashSecret, verifySecret } from './secret-hash.js';

let dummyHash: Promise<string> | undefined;

function invalidClient(): ErxError {
  // RFC 6749 §5.2 names this failure `invalid_client`; the client message never says which part.
  return new ErxError('unauthorized', 'Client authentication failed.', {
    causeCode: 'invalid_client',
  });
}

/** The client `clientId` if `clientSecret` is its secret; throws `unauthorized` otherwise. */
export async function authenticateClient(
  store: Store,
  clientId: string | undefined,
  clientSecret: string | undefined,
): Promise<ClientRow> {
  if (!clientId || !clientSecret) throw invalidClient();
  const client = await store.getClient(clientId);
  if (client === undefined) {
    dummyHash ??= hashSecret(generateSecret());
    await verifySecret(clientSecret, await dummyHash);
    throw invalidClient();
  }
  if (!(await verifySecret(clientSecret, client.secretHash))) throw invalidClient();
  return client;
}
