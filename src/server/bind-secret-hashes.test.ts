/** Older secret hashes are bound at the first start with a pepper, and never again. */
import assert from 'node:assert/strict';
import { randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { Pepper, TokenService } from '../auth/index.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import type { ClientRow } from '../store/types.js';
import { SECRETS_BOUND_FILE, bindOlderSecretHashesOnce } from './bind-secret-hashes.js';

const root = mkdtempSync(join(tmpdir(), 'erx-bind-secrets-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** A client row as erx wrote it before hashes were bound to the pepper. */
function olderClient(clientId: string, secret: string): ClientRow {
  const salt = randomBytes(16);
  const key = scryptSync(secret, salt, 32, { N: 1024, r: 8, p: 1 });
  const secretHash = ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')];
  return {
    clientId,
    secretHash: secretHash.join('$'),
    role: 'prescriber',
    name: clientId,
    description: '',
    sub: `HIN|${clientId}`,
    createdAt: 0,
  };
}

test('binds at the first start only: an older hash written later never authenticates', async () => {
  const dataDir = join(root, 'data');
  const store = openSqliteStore(':memory:');
  try {
    const tokens = new TokenService(store, new Pepper(randomBytes(32)));
    const issue = (clientId: string, clientSecret: string) =>
      tokens.issueToken({ grantType: 'client_credentials', clientId, clientSecret });
    await store.clients.add(olderClient('before', 'secret-before-1'));
    assert.deepEqual(await bindOlderSecretHashesOnce(dataDir, tokens), {
      upgraded: 1,
      unreadable: [],
    });
    assert.equal((await issue('before', 'secret-before-1')).token_type, 'Bearer');
    assert.equal(statSync(join(dataDir, SECRETS_BOUND_FILE)).mode & 0o777, 0o600);
    assert.match(readFileSync(join(dataDir, SECRETS_BOUND_FILE), 'utf8'), /bound 1 older/);

    await store.clients.add(olderClient('later', 'secret-later-1'));
    assert.equal(await bindOlderSecretHashesOnce(dataDir, tokens), undefined);
    await assert.rejects(issue('later', 'secret-later-1'), { code: 'unauthorized' });
  } finally {
    await store.close();
  }
});
