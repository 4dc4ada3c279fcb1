import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ErxError } from '../errors.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { storedTokenHash } from './access-token.js';
import type { AddClientInput } from './client-input.js';
import { Pepper } from './pepper.js';
import type { ClientRow, Store, TokenRow } from '../store/types.js';
import { EmbeddedTokenChecker } from './embedded-token-checker.js';
import { TokenService } from './token-service.js';

const START = Date.UTC(2024, 7, 16, 13, 12, 12, 345);
const PHARMACY: AddClientInput = {
  clientId: 'pharma1',
  secret: 'pharmacy-secret-1',
  role: 'pharmacist',
  name: 'Apotheke am Platz',
  description: 'Pharmacy software of Apotheke am Platz',
  sub: 'HIN|pharma1',
};
const PRACTICE: AddClientInput = {
  clientId: 'doc1',
  role: 'prescriber',
  name: 'Dr. Anna Muster',
  sub: 'HIN|doc1',
};

/** A client row as the store holds it, with a placeholder hash. */
function clientRow(clientId: string): ClientRow {
  return {
    clientId,
    secretHash: 'none',
    role: 'pharmacist',
    name: `Apotheke ${clientId}`,
    description: '',
    sub: `HIN|${clientId}`,
    createdAt: START,
  };
}

function isError(code: string, causeCode?: string) {
  return (error: unknown) =>
    error instanceof ErxError &&
    error.code === code &&
    (causeCode === undefined || error.causeCode === causeCode);
}

describe('TokenService', () => {
  let store: Store;
  let now: number;
  let service: TokenService;
  let pepper: Pepper;

  beforeEach(() => {
    store = openSqliteStore(':memory:');
    now = START;
    pepper = new Pepper(randomBytes(32));
    service = new TokenService(store, pepper, { now: () => now, tokenLifetimeSeconds: 3600 });
  });

  async function tokenOf(input: AddClientInput, secret: string): Promise<string> {
    const issued = await service.issueToken({
      grantType: 'client_credentials',
      clientId: input.clientId,
      clientSecret: secret,
    });
    return issued.access_token;
  }

  describe('clients', () => {
    it('adds, lists and removes clients, never showing secret hashes', async () => {
      const added = await service.addClient(PHARMACY);
      assert.equal(added.secret, undefined, 'a given secret is not echoed');
      await service.addClient(PRACTICE);
      const listed = await service.listClients();
      assert.deepEqual(listed.map((c) => c.clientId).sort(), ['doc1', 'pharma1']);
      const pharmacy = listed.find((c) => c.clientId === 'pharma1');
      assert.deepEqual(pharmacy, {
        clientId: PHARMACY.clientId,
        role: PHARMACY.role,
        name: PHARMACY.name,
        description: PHARMACY.description,
        sub: PHARMACY.sub,
        createdAt: START,
      });
      for (const client of listed) assert.ok(!('secretHash' in client));
      assert.equal(await service.removeClient('pharma1'), true);
      assert.equal(await service.removeClient('pharma1'), false);
      assert.deepEqual(
        (await service.listClients()).map((c) => c.clientId),
        ['doc1'],
      );
    });

    it('generates a secret when none is given, returns it once, and it works', async () => {
      const added = await service.addClient(PRACTICE);
      assert.match(added.secret ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.equal(added.client.description, '');
      const row = await store.getClient('doc1');
      assert.ok(row !== undefined && !row.secretHash.includes(added.secret ?? '-'));
      const token = await tokenOf(PRACTICE, added.secret ?? '');
      assert.ok(token.length > 0);
    });

    it('refuses a second client with the same id as a conflict', async () => {
      await service.addClient(PHARMACY);
      await assert.rejects(
        service.addClient({ ...PHARMACY, sub: 'HIN|other' }),
        isError('conflict'),
      );
    });

    it('lists every invalid field of a registration', async () => {
      const bad: AddClientInput = {
        clientId: 'has space',
        secret: 'short',
        role: 'admin',
        name: '  ',
        description: 'line\u0007bell',
        sub: '',
      };
      await assert.rejects(service.addClient(bad), (error: unknown) => {
        assert.ok(error instanceof ErxError && error.code === 'bad_request');
        const paths = (error.violations ?? []).map((v) => v.path).sort();
        assert.deepEqual(paths, ['/clientId', '/description', '/name', '/role', '/secret', '/sub']);
        return true;
      });
      assert.deepEqual(await service.listClients(), []);
    });

    it('bounds ids at 200 characters', async () => {
      const ok = await service.addClient({ ...PRACTICE, clientId: 'x'.repeat(200) });
      assert.equal(ok.client.clientId.length, 200);
      await assert.rejects(
        service.addClient({ ...PRACTICE, clientId: 'y'.repeat(201) }),
        isError('bad_request'),
      );
    });
  });

  describe('issueToken', () => {
    beforeEach(async () => {
      await service.addClient(PHARMACY);
    });

    it('issues a Bearer token for client_credentials, stored only as its MAC under the pepper', async () => {
      const issued = await service.issueToken({
        grantType: 'client_credentials',
        clientId: 'pharma1',
        clientSecret: PHARMACY.secret,
      });
      assert.equal(issued.token_type, 'Bearer');
      assert.equal(issued.expires_in, 3600);
      assert.match(issued.access_token, /^[A-Za-z0-9_-]{43}$/);
      const row = await store.getToken(storedTokenHash(pepper, issued.access_token));
      assert.equal(row?.clientId, 'pharma1');
      assert.equal(row?.expiresAt, (Math.floor(START / 1000) + 3600) * 1000);
      assert.equal(await store.getToken(issued.access_token), undefined);
      const sha256 = createHash('sha256').update(issued.access_token).digest('hex');
      assert.equal(await store.getToken(sha256), undefined);
    });

    it('issues a different token each time', async () => {
      const a = await tokenOf(PHARMACY, PHARMACY.secret ?? '');
      const b = await tokenOf(PHARMACY, PHARMACY.secret ?? '');
      assert.notEqual(a, b);
    });

    const refusals: [string, Parameters<TokenService['issueToken']>[0], string, string][] = [
      [
        'a wrong secret',
        { grantType: 'client_credentials', clientId: 'pharma1', clientSecret: 'pharmacy-secret-2' },
        'unauthorized',
        'invalid_client',
      ],
      [
        'an unknown client',
        { grantType: 'client_credentials', clientId: 'nobody', clientSecret: 'pharmacy-secret-1' },
        'unauthorized',
        'invalid_client',
      ],
      [
        'a missing secret',
        { grantType: 'client_credentials', clientId: 'pharma1', clientSecret: undefined },
        'unauthorized',
        'invalid_client',
      ],
      [
        'a missing client id',
        { grantType: 'client_credentials', clientId: undefined, clientSecret: 'pharmacy-secret-1' },
        'unauthorized',
        'invalid_client',
      ],
      [
        'another grant',
        { grantType: 'password', clientId: 'pharma1', clientSecret: 'pharmacy-secret-1' },
        'bad_request',
        'unsupported_grant_type',
      ],
      [
        'no grant',
        { grantType: undefined, clientId: 'pharma1', clientSecret: 'pharmacy-secret-1' },
        'bad_request',
        'invalid_request',
      ],
    ];
    for (const [label, request, code, causeCode] of refusals) {
      it(`refuses ${label} (${code} / ${causeCode}) and stores no token`, async () => {
        await assert.rejects(service.issueToken(request), isError(code, causeCode));
        assert.equal(await service.purgeExpiredTokens(), 0);
        now += 3601 * 1000;
        assert.equal(await service.purgeExpiredTokens(), 0);
      });
    }
  });

  describe('tokenInfo (seed §4.3)', () => {
    let token: string;

    beforeEach(async () => {
      await service.addClient(PHARMACY);
      await service.addClient({ ...PRACTICE, secret: 'practice-secret-1' });
      token = await tokenOf(PHARMACY, PHARMACY.secret ?? '');
    });

    const asPractice = { clientId: 'doc1', clientSecret: 'practice-secret-1' };

    it('answers seed §2.6 fields plus client_id, scope, sub when active', async () => {
      now += 10_000;
      const info = await service.tokenInfo({ token, ...asPractice });
      const exp = Math.floor(START / 1000) + 3600;
      assert.deepEqual(info, {
        active: true,
        description: PHARMACY.description,
        exp,
        expires_in: exp - Math.floor(now / 1000),
        expires_on: new Date(exp * 1000).toISOString().replace('.000Z', 'Z'),
        name: PHARMACY.name,
        client_id: 'pharma1',
        scope: 'pharmacist',
        sub: 'HIN|pharma1',
      });
      assert.ok(info.active);
      assert.ok(Number.isInteger(info.exp) && Number.isInteger(info.expires_in));
      assert.match(info.expires_on, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      assert.equal(Date.parse(info.expires_on) / 1000, info.exp);
      assert.equal(info.expires_in, 3590);
    });

    it('lets a client check its own token', async () => {
      const info = await service.tokenInfo({
        token,
        clientId: 'pharma1',
        clientSecret: PHARMACY.secret,
      });
      assert.equal(info.active, true);
    });

    it('answers exactly {active: false} for an unknown token', async () => {
      assert.deepEqual(await service.tokenInfo({ token: `${token}x`, ...asPractice }), {
        active: false,
      });
      assert.deepEqual(await service.tokenInfo({ token: 'z'.repeat(10_000), ...asPractice }), {
        active: false,
      });
    });

    it('answers exactly {active: false} once the token has expired', async () => {
      now = (Math.floor(START / 1000) + 3599) * 1000 + 999;
      assert.equal((await service.tokenInfo({ token, ...asPractice })).active, true);
      now += 1;
      assert.deepEqual(await service.tokenInfo({ token, ...asPractice }), { active: false });
      assert.equal(await service.purgeExpiredTokens(), 0, 'purge takes tokens past their expiry');
      now += 1;
      assert.equal(await service.purgeExpiredTokens(), 1);
    });

    it('answers {active: false} for the tokens of a removed client', async () => {
      await service.removeClient('pharma1');
      assert.deepEqual(await service.tokenInfo({ token, ...asPractice }), { active: false });
    });

    it('refuses bad client credentials as unauthorized, even for an active token', async () => {
      const bad = [
        { clientId: 'doc1', clientSecret: 'practice-secret-2' },
        { clientId: 'nobody', clientSecret: 'practice-secret-1' },
      ];
      for (const credentials of bad) {
        await assert.rejects(
          service.tokenInfo({ token, ...credentials }),
          isError('unauthorized', 'invalid_client'),
        );
      }
    });

    it('refuses a missing or empty field as bad_request', async () => {
      const full = { token, ...asPractice };
      const cases = [
        { ...full, token: undefined },
        { ...full, token: '' },
        { ...full, clientId: undefined },
        { ...full, clientSecret: undefined },
        { ...full, clientSecret: '' },
      ];
      for (const request of cases) {
        await assert.rejects(service.tokenInfo(request), isError('bad_request', 'invalid_request'));
      }
    });
  });

  describe('rows written without the pepper (docs/security.md)', () => {
    const asPractice = { clientId: 'doc1', clientSecret: 'practice-secret-1' };
    let token: string;

    beforeEach(async () => {
      await service.addClient(PHARMACY);
      await service.addClient({ ...PRACTICE, secret: 'practice-secret-1' });
      token = await tokenOf(PHARMACY, PHARMACY.secret ?? '');
    });

    /** `store` as read by someone who edited `edit`'s rows in the database. */
    function edited(rows: { token?: Partial<TokenRow>; client?: Partial<ClientRow> }): Store {
      return new Proxy(store, {
        get(target, key) {
          if (key === 'getToken') {
            return async (hash: string) => {
              const row = await target.getToken(hash);
              return row && { ...row, ...rows.token };
            };
          }
          if (key === 'getClient') {
            return async (id: string) => {
              const row = await target.getClient(id);
              return row && { ...row, ...rows.client };
            };
          }
          const value = Reflect.get(target, key) as unknown;
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
    }

    it('a token row inserted with the SHA-256 of a chosen token authenticates nobody', async () => {
      const chosen = randomBytes(32).toString('base64url');
      const sha256 = createHash('sha256').update(chosen).digest('hex');
      await store.insertToken({
        tokenHash: sha256,
        clientId: 'doc1',
        expiresAt: now + 3600_000,
        createdAt: now,
      });
      assert.deepEqual(await service.tokenInfo({ token: chosen, ...asPractice }), {
        active: false,
      });
      assert.equal(await new EmbeddedTokenChecker(store, pepper).check(chosen), undefined);
    });

    it('a token row made under another pepper authenticates nobody', async () => {
      const chosen = randomBytes(32).toString('base64url');
      const other = new Pepper(randomBytes(32));
      const tokenHash = storedTokenHash(other, chosen);
      await store.insertToken({
        tokenHash,
        clientId: 'doc1',
        expiresAt: now + 3600_000,
        createdAt: now,
      });
      assert.deepEqual(await service.tokenInfo({ token: chosen, ...asPractice }), {
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
        const checker = (s: Store) => new EmbeddedTokenChecker(s, pepper, { now: () => now });
        assert.equal((await checker(store).check(token))?.sub, 'HIN|pharma1');
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
      await store.addClient({ ...clientRow('intruder'), secretHash });
      await assert.rejects(
        service.issueToken({
          grantType: 'client_credentials',
          clientId: 'intruder',
          clientSecret: 'chosen-secret-123',
        }),
        isError('unauthorized', 'invalid_client'),
      );
    });

    it('a secret hash moved to another client, or a client given another role, does not authenticate', async () => {
      const pharmacy = (await store.getClient('pharma1'))!;
      await store.addClient({ ...clientRow('copy'), secretHash: pharmacy.secretHash });
      const attempts: [Store, string][] = [
        [store, 'copy'],
        [edited({ client: { role: 'prescriber' } }), 'pharma1'],
        [edited({ client: { sub: 'HIN|doc1' } }), 'pharma1'],
      ];
      for (const [s, clientId] of attempts) {
        await assert.rejects(
          new TokenService(s, pepper).issueToken({
            grantType: 'client_credentials',
            clientId,
            clientSecret: PHARMACY.secret,
          }),
          isError('unauthorized', 'invalid_client'),
        );
      }
    });

    it('another pepper authenticates none of the clients', async () => {
      const elsewhere = new TokenService(store, new Pepper(randomBytes(32)));
      await assert.rejects(
        elsewhere.issueToken({ grantType: 'client_credentials', ...asPractice }),
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
      service.issueToken({ grantType: 'client_credentials', clientId, clientSecret });

    it('binds older hashes without the secret: refused before, authenticated after, once', async () => {
      await store.addClient({ ...clientRow('older'), secretHash: olderHash('older-secret-1') });
      await store.addClient({ ...clientRow('broken'), secretHash: 'scrypt$x' });
      await service.addClient(PHARMACY);
      await assert.rejects(issue('older', 'older-secret-1'), isError('unauthorized'));
      assert.deepEqual(await service.upgradeSecretHashes(), {
        upgraded: 1,
        unreadable: ['broken'],
      });
      assert.match((await store.getClient('older'))!.secretHash, /^scrypt-hmac\$/);
      assert.equal((await issue('older', 'older-secret-1')).token_type, 'Bearer');
      await assert.rejects(issue('older', 'older-secret-2'), isError('unauthorized'));
      assert.equal((await issue('pharma1', PHARMACY.secret!)).token_type, 'Bearer');
      assert.deepEqual(await service.upgradeSecretHashes(), {
        upgraded: 0,
        unreadable: ['broken'],
      });
    });
  });

  it('refuses a token lifetime that is not a positive whole number', () => {
    for (const tokenLifetimeSeconds of [0, -1, 1.5]) {
      assert.throws(() => new TokenService(store, pepper, { tokenLifetimeSeconds }), RangeError);
    }
  });
});
