import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { ErxError } from '../errors.js';
import { storedTokenHash } from './access-token.js';
import type { AddClientInput } from './client-input.js';
import { TokenService } from './token-service.js';
import {
  AS_PRACTICE,
  isError,
  PHARMACY,
  PRACTICE,
  START,
  tokenServiceFixture,
} from '../../test/support/token-service.js';
import type { TokenServiceFixture } from '../../test/support/token-service.js';

describe('TokenService', () => {
  let fx: TokenServiceFixture;

  beforeEach(() => {
    fx = tokenServiceFixture();
  });

  describe('clients', () => {
    it('adds, lists and removes clients, never showing secret hashes', async () => {
      const added = await fx.service.addClient(PHARMACY);
      assert.equal(added.secret, undefined, 'a given secret is not echoed');
      await fx.service.addClient(PRACTICE);
      const listed = await fx.service.listClients();
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
      assert.equal(await fx.service.removeClient('pharma1'), true);
      assert.equal(await fx.service.removeClient('pharma1'), false);
      assert.deepEqual(
        (await fx.service.listClients()).map((c) => c.clientId),
        ['doc1'],
      );
    });

    it('generates a secret when none is given, returns it once, and it works', async () => {
      const added = await fx.service.addClient(PRACTICE);
      assert.match(added.secret ?? '', /^[A-Za-z0-9_-]{43}$/);
      assert.equal(added.client.description, '');
      const row = await fx.store.clients.get('doc1');
      assert.ok(row !== undefined && !row.secretHash.includes(added.secret ?? '-'));
      const token = await fx.tokenOf(PRACTICE, added.secret ?? '');
      assert.ok(token.length > 0);
    });

    it('refuses a second client with the same id as a conflict', async () => {
      await fx.service.addClient(PHARMACY);
      await assert.rejects(
        fx.service.addClient({ ...PHARMACY, sub: 'HIN|other' }),
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
      await assert.rejects(fx.service.addClient(bad), (error: unknown) => {
        assert.ok(error instanceof ErxError && error.code === 'bad_request');
        const paths = (error.violations ?? []).map((v) => v.path).sort();
        assert.deepEqual(paths, ['/clientId', '/description', '/name', '/role', '/secret', '/sub']);
        return true;
      });
      assert.deepEqual(await fx.service.listClients(), []);
    });

    it('bounds ids at 200 characters', async () => {
      const ok = await fx.service.addClient({ ...PRACTICE, clientId: 'x'.repeat(200) });
      assert.equal(ok.client.clientId.length, 200);
      await assert.rejects(
        fx.service.addClient({ ...PRACTICE, clientId: 'y'.repeat(201) }),
        isError('bad_request'),
      );
    });
  });

  describe('issueToken', () => {
    beforeEach(async () => {
      await fx.service.addClient(PHARMACY);
    });

    it('issues a Bearer token for client_credentials, stored only as its MAC under the pepper', async () => {
      const issued = await fx.service.issueToken({
        grantType: 'client_credentials',
        clientId: 'pharma1',
        clientSecret: PHARMACY.secret,
      });
      assert.equal(issued.token_type, 'Bearer');
      assert.equal(issued.expires_in, 3600);
      assert.match(issued.access_token, /^[A-Za-z0-9_-]{43}$/);
      const row = await fx.store.clients.getToken(storedTokenHash(fx.pepper, issued.access_token));
      assert.equal(row?.clientId, 'pharma1');
      assert.equal(row?.expiresAt, (Math.floor(START / 1000) + 3600) * 1000);
      assert.equal(await fx.store.clients.getToken(issued.access_token), undefined);
      const sha256 = createHash('sha256').update(issued.access_token).digest('hex');
      assert.equal(await fx.store.clients.getToken(sha256), undefined);
    });

    it('issues a different token each time', async () => {
      const a = await fx.tokenOf(PHARMACY, PHARMACY.secret ?? '');
      const b = await fx.tokenOf(PHARMACY, PHARMACY.secret ?? '');
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
        await assert.rejects(fx.service.issueToken(request), isError(code, causeCode));
        assert.equal(await fx.service.purgeExpiredTokens(), 0);
        fx.now += 3601 * 1000;
        assert.equal(await fx.service.purgeExpiredTokens(), 0);
      });
    }
  });

  describe('tokenInfo (seed §4.3)', () => {
    let token: string;

    beforeEach(async () => {
      token = await fx.addClientsWithToken();
    });

    it('answers seed §2.6 fields plus client_id, scope, sub when active', async () => {
      fx.now += 10_000;
      const info = await fx.service.tokenInfo({ token, ...AS_PRACTICE });
      const exp = Math.floor(START / 1000) + 3600;
      assert.deepEqual(info, {
        active: true,
        description: PHARMACY.description,
        exp,
        expires_in: exp - Math.floor(fx.now / 1000),
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
      const info = await fx.service.tokenInfo({
        token,
        clientId: 'pharma1',
        clientSecret: PHARMACY.secret,
      });
      assert.equal(info.active, true);
    });

    it('answers exactly {active: false} for an unknown token', async () => {
      assert.deepEqual(await fx.service.tokenInfo({ token: `${token}x`, ...AS_PRACTICE }), {
        active: false,
      });
      assert.deepEqual(await fx.service.tokenInfo({ token: 'z'.repeat(10_000), ...AS_PRACTICE }), {
        active: false,
      });
    });

    it('answers exactly {active: false} once the token has expired', async () => {
      fx.now = (Math.floor(START / 1000) + 3599) * 1000 + 999;
      assert.equal((await fx.service.tokenInfo({ token, ...AS_PRACTICE })).active, true);
      fx.now += 1;
      assert.deepEqual(await fx.service.tokenInfo({ token, ...AS_PRACTICE }), { active: false });
      assert.equal(
        await fx.service.purgeExpiredTokens(),
        0,
        'purge takes tokens past their expiry',
      );
      fx.now += 1;
      assert.equal(await fx.service.purgeExpiredTokens(), 1);
    });

    it('answers {active: false} for the tokens of a removed client', async () => {
      await fx.service.removeClient('pharma1');
      assert.deepEqual(await fx.service.tokenInfo({ token, ...AS_PRACTICE }), { active: false });
    });

    it('refuses bad client credentials as unauthorized, even for an active token', async () => {
      const bad = [
        { clientId: 'doc1', clientSecret: 'practice-secret-2' },
        { clientId: 'nobody', clientSecret: 'practice-secret-1' },
      ];
      for (const credentials of bad) {
        await assert.rejects(
          fx.service.tokenInfo({ token, ...credentials }),
          isError('unauthorized', 'invalid_client'),
        );
      }
    });

    it('refuses a missing or empty field as bad_request', async () => {
      const full = { token, ...AS_PRACTICE };
      const cases = [
        { ...full, token: undefined },
        { ...full, token: '' },
        { ...full, clientId: undefined },
        { ...full, clientSecret: undefined },
        { ...full, clientSecret: '' },
      ];
      for (const request of cases) {
        await assert.rejects(
          fx.service.tokenInfo(request),
          isError('bad_request', 'invalid_request'),
        );
      }
    });
  });

  it('refuses a token lifetime that is not a positive whole number', () => {
    for (const tokenLifetimeSeconds of [0, -1, 1.5]) {
      assert.throws(
        () => new TokenService(fx.store, fx.pepper, { tokenLifetimeSeconds }),
        RangeError,
      );
    }
  });
});
