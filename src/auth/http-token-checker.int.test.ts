/**
 * The checker of tokens issued elsewhere speaks both protocols over real HTTP: the seed's
 * GetTokenInfo (erx's credentials in the form) and RFC 7662 introspection (HTTP Basic).
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { parseBasicCredentials } from './client-credentials.js';
import { HttpTokenChecker } from './http-token-checker.js';
import {
  ERX,
  GET_TOKEN_INFO,
  isUnavailable,
  json,
  startGetTokenInfoProvider,
  startServer,
} from '../../test/support/token-provider.js';
import type { LocalServer } from '../../test/support/token-provider.js';

const NOW_S = Math.floor(Date.now() / 1000);

describe('HttpTokenChecker against a seed GetTokenInfo provider (seed §4.3)', () => {
  let provider: Awaited<ReturnType<typeof startGetTokenInfoProvider>>;

  before(async () => {
    provider = await startGetTokenInfoProvider();
  });
  after(() => provider.server.close());

  function checker(clientSecret = ERX.clientSecret): HttpTokenChecker {
    const url = provider.server.url(GET_TOKEN_INFO);
    return new HttpTokenChecker({ url, ...ERX, clientSecret, protocol: 'gettokeninfo' });
  }

  it('sends the three form fields and reads the principal', async () => {
    const principal = await checker().check(provider.token);
    assert.equal(principal?.sub, 'HIN|pharma1');
    assert.equal(principal?.name, 'Apotheke am Platz');
    assert.equal(principal?.role, 'pharmacist');
    assert.equal(principal?.clientId, 'pharma1');
    assert.ok(principal !== undefined);
    assert.ok(principal.expiresAt >= provider.issuedFrom + 3600 - 1, 'expires an hour after issue');
    assert.ok(principal.expiresAt <= provider.issuedTo + 3600 + 1, 'expires an hour after issue');
    const request = provider.server.received.at(-1);
    assert.equal(request?.method, 'POST');
    assert.equal(request?.path, GET_TOKEN_INFO);
    assert.equal(request?.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.equal(request?.headers.authorization, undefined);
    assert.deepEqual([...(request?.form.keys() ?? [])].sort(), [
      'client_id',
      'client_secret',
      'token',
    ]);
    assert.equal(request?.form.get('token'), provider.token);
    assert.equal(request?.form.get('client_id'), ERX.clientId);
    assert.equal(request?.form.get('client_secret'), ERX.clientSecret);
  });

  it('answers undefined for a token the provider calls inactive', async () => {
    assert.equal(await checker().check(`${provider.token}x`), undefined);
  });

  it('fails closed when the provider refuses erx own credentials (401)', async () => {
    await assert.rejects(checker('wrong-secret-123').check(provider.token), isUnavailable);
  });
});

describe('HttpTokenChecker against an RFC 7662 introspection endpoint', () => {
  let server: LocalServer;
  const ACTIVE = 'active-token-1';

  before(async () => {
    server = await startServer((request, response) => {
      const caller = parseBasicCredentials(request.headers.authorization);
      if (caller?.clientId !== ERX.clientId || caller.clientSecret !== ERX.clientSecret) {
        json(response, 401, { error: 'invalid_client' });
        return;
      }
      if (request.form.get('token') !== ACTIVE) {
        json(response, 200, { active: false });
        return;
      }
      json(response, 200, {
        active: true,
        scope: 'openid prescriber',
        client_id: 'pis-7',
        username: 'Dr. Beat Beispiel',
        sub: 'HIN|doc7',
        exp: NOW_S + 900,
        token_type: 'Bearer',
      });
    });
  });
  after(() => server.close());

  function checker(): HttpTokenChecker {
    return new HttpTokenChecker({ url: server.url('/introspect'), ...ERX, protocol: 'rfc7662' });
  }

  it('uses HTTP Basic, sends only the token and its hint', async () => {
    assert.deepEqual(await checker().check(ACTIVE), {
      sub: 'HIN|doc7',
      name: 'Dr. Beat Beispiel',
      role: 'prescriber',
      clientId: 'pis-7',
      expiresAt: NOW_S + 900,
    });
    const request = server.received.at(-1);
    assert.equal(request?.method, 'POST');
    assert.equal(request?.headers['content-type'], 'application/x-www-form-urlencoded');
    assert.deepEqual(parseBasicCredentials(request?.headers.authorization), ERX);
    assert.deepEqual(
      [...(request?.form.entries() ?? [])],
      [
        ['token', ACTIVE],
        ['token_type_hint', 'access_token'],
      ],
    );
  });

  it('answers undefined for an inactive token', async () => {
    assert.equal(await checker().check('unknown-token'), undefined);
  });
});
