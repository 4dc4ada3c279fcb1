import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import type { ClientRow, Store, TokenRow } from '../store/types.js';
import { storedTokenHash } from './access-token.js';
import { EmbeddedTokenChecker } from './embedded-token-checker.js';
import { Pepper } from './pepper.js';
import { TokenService } from './token-service.js';
import {
  AS_PRACTICE,
  clientRow,
  isError,
  PHARMACY,
  START,
  tokenServiceFixture,
} from '../../test/support/token-service.js';
import type { TokenServiceFixture } from '../../test/support/token-service.js';

describe('TokenService', () => {
  let fx: TokenServiceFixture;

  beforeEach(() => {
    fx = tokenServiceFixture();
  });

  describe('rows written without the pepper (docs/security.md)', () => {
    let token: string;

    beforeEach(async () => {
      token = await fx.addClientsWithToken();
    });

    /** `fx.store` as read by someone who edited `edit`'s rows in the database. */
    function edited(rows: { token?: Partial<TokenRow>; client?: Partial<ClientRow> }): Store {
      const clients = new Proxy(fx.store.clients, {
        get(target, key) {
          if (key === 'getToken') {
            return async (hash: string) => {
              const row = await target.getToken(hash);
              return row && { ...row, ...rows.token };
            };
          }
          if (key === 'get') {
            return async (id: string) => {
              const row = await target.get(id);
              return row && { ...row, ...rows.client };
            };
          }
          const value = Reflect.get(target, key) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return new Proxy(fx.store, {
        get(target, key) {
          if (key === 'clients') return clients;
          const value = Reflect.get(target, key) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    }

    it('a token row inserted with the SHA-256 of a chosen token authenticates nobody', async () => {
      const chosen = randomBytes(32).toString('base64url');
      const sha256 = createHash('sha256').update(chosen).digest('hex');
      await fx.store.clients.insertToken({
        tokenHash: sha256,
        clientId: 'doc1',
        expiresAt: fx.now + 3600_000,
        createdAt: fx.now,
      });
      assert.deepEqual(await fx.service.tokenInfo({ token: chosen, ...AS_PRACTICE }), {
        active: false,
      });
      assert.equal(await new EmbeddedTokenChecker(fx.store, fx.pepper).check(chosen), undefined);
    });

    it('a token row made under another pepper authenticates nobody', async () => {
      const chosen = randomBytes(32).toString('base64url');
      const other = new Pepper(randomBytes(32));
      const tokenHash = storedTokenHash(other, chosen);
      await fx.store.clients.insertToken({
        tokenHash,
        clientId: 'doc1',
        expiresAt: fx.now + 3600_000,
        createdAt: fx.now,
      });
      assert.deepEqual(await fx.service.tokenInfo({ token: chosen, ...AS_PRACTICE }), {
        active: false,
      });
    });

    const edits: [string, { token?: Partial<TokenRow>; client?: Partial<ClientRow> }][] = [
      ['re-pointed to another client', { token: { clientId: 'doc1' } }],
      ['given a later expiry', { token: { expiresAt: START + 7200_000 } }],
      ['its client given another role', { client: { role: 'prescriber' } }],
      ['its client given another sub', { client: { sub: 'HIN|doc1' } }],
      ['its client given another name', { client: { name: 'Dr. Anna Muster' } }],
    ];
    for (const [label, rows] of edits) {
      it(`a token whose rows were ${label} authenticates nobody`, async () => {
        const checker = (s: Store) => new EmbeddedTokenChecker(s, fx.pepper, { now: () => fx.now });
        assert.equal((await checker(fx.store).check(token))?.sub, 'HIN|pharma1');
        assert.equal(await checker(edited(rows)).check(token), undefined);
      });
    }

    it('a client row with a self-made scrypt hash does not authenticate', async () => {
      const salt = randomBytes(16);
      const key = scryptSync('chosen-secret-123', salt, 32, { N: 1024, r: 8, p: 1 });
      const secretHash = [
        'scrypt',
        1024,
        8,
        1,
        salt.toString('base64url'),
        key.toString('base64url'),
      ].join('$');
      await fx.store.clients.add({ ...clientRow('intruder'), secretHash });
      await assert.rejects(
        fx.service.issueToken({
          grantType: 'client_credentials',
          clientId: 'intruder',
          clientSecret: 'chosen-secret-123',
        }),
        isError('unauthorized', 'invalid_client'),
      );
    });

    it('a secret hash moved to another client, or a client given another role, does not authenticate', async () => {
      const pharmacy = (await fx.store.clients.get('pharma1'))!;
      await fx.store.clients.add({ ...clientRow('copy'), secretHash: pharmacy.secretHash });
      const attempts: [Store, string][] = [
        [fx.store, 'copy'],
        [edited({ client: { role: 'prescriber' } }), 'pharma1'],
        [edited({ client: { sub: 'HIN|doc1' } }), 'pharma1'],
      ];
      for (const [s, clientId] of attempts) {
        await assert.rejects(
          new TokenService(s, fx.pepper).issueToken({
            grantType: 'client_credentials',
            clientId,
            clientSecret: PHARMACY.secret,
          }),
          isError('unauthorized', 'invalid_client'),
        );
      }
    });

    it('another pepper authenticates none of the clients', async () => {
      const elsewhere = new TokenService(fx.store, new Pepper(randomBytes(32)));
      await assert.rejects(
        elsewhere.issueToken({ grantType: 'client_credentials', ...AS_PRACTICE }),
        isError('unauthorized', 'invalid_client'),
      );
    });
  });

  describe('upgradeSecretHashes', () => {
    /** A hash as erx wrote it before hashes were bound to the pepper. */
    function olderHash(secret: string): string {
      const salt = randomBytes(16);
      const key = scryptSync(secret, salt, 32, { N: 1024, r: 8, p: 1 });
      return ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')].join(
        '$',
      );
    }
    const issue = (clientId: string, clientSecret: string) =>
      fx.service.issueToken({ grantType: 'client_credentials', clientId, clientSecret });

    it('binds older hashes without the secret: refused before, authenticated after, once', async () => {
      await fx.store.clients.add({
        ...clientRow('older'),
        secretHash: olderHash('older-secret-1'),
      });
      await fx.store.clients.add({ ...clientRow('broken'), secretHash: 'scrypt$x' });
      await fx.service.addClient(PHARMACY);
      await assert.rejects(issue('older', 'older-secret-1'), isError('unauthorized'));
      assert.deepEqual(await fx.service.upgradeSecretHashes(), {
        upgraded: 1,
        unreadable: ['broken'],
      });
      assert.match((await fx.store.clients.get('older'))!.secretHash, /^scrypt-hmac\$/);
      assert.equal((await issue('older', 'older-secret-1')).token_type, 'Bearer');
      await assert.rejects(issue('older', 'older-secret-2'), isError('unauthorized'));
      assert.equal((await issue('pharma1', PHARMACY.secret!)).token_type, 'Bearer');
      assert.deepEqual(await fx.service.upgradeSecretHashes(), {
        upgraded: 0,
        unreadable: ['broken'],
      });
    });
  });
});
