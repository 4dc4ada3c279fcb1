/**
 * `createTokenChecker` picks the checker the configuration asks for: embedded tokens without an
 * auth URL, GetTokenInfo at a /GetTokenInfo URL (cached), RFC 7662 elsewhere or when told to.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ErxError } from '../errors.js';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { parseBasicCredentials } from './client-credentials.js';
import { createTokenChecker } from './create-token-checker.js';
import { TokenService } from './token-service.js';
import {
  ERX,
  GET_TOKEN_INFO,
  PEPPER,
  json,
  startGetTokenInfoProvider,
  startServer,
} from '../../test/support/token-provider.js';
import type { LocalServer } from '../../test/support/token-provider.js';

describe('createTokenChecker', () => {
  let provider: Awaited<ReturnType<typeof startGetTokenInfoProvider>>;
  let introspection: LocalServer;

  before(async () => {
    provider = await startGetTokenInfoProvider();
    introspection = await startServer((_request, response) =>
      json(response, 200, { active: false }),
    );
  });
  after(() => Promise.all([provider.server.close(), introspection.close()]));

  it('checks embedded tokens against the store when no ERX_AUTH_URL is set', async () => {
    const store = openSqliteStore(':memory:');
    const tokens = new TokenService(store, PEPPER);
    const { secret } = await tokens.addClient({
      clientId: 'doc1',
      role: 'prescriber',
      name: 'Dr. A',
      sub: 'HIN|doc1',
    });
    const issued = await tokens.issueToken({
      grantType: 'client_credentials',
      clientId: 'doc1',
      clientSecret: secret,
    });
    const none = { authUrl: undefined, authClientId: undefined, authClientSecret: undefined };
    const checker = createTokenChecker(none, store, PEPPER);
    assert.equal((await checker.check(issued.access_token))?.sub, 'HIN|doc1');
  });

  it('speaks GetTokenInfo to a /GetTokenInfo URL, and caches the answer', async () => {
    const lookups: string[] = [];
    const settings = {
      authUrl: provider.server.url(GET_TOKEN_INFO),
      authClientId: ERX.clientId,
      authClientSecret: ERX.clientSecret,
    };
    const checker = createTokenChecker(settings, openSqliteStore(':memory:'), undefined, {
      onLookup: (result) => lookups.push(result),
    });
    const before = provider.server.received.length;
    assert.equal((await checker.check(provider.token))?.sub, 'HIN|pharma1');
    assert.equal((await checker.check(provider.token))?.sub, 'HIN|pharma1');
    assert.equal(provider.server.received.length, before + 1);
    assert.deepEqual(lookups, ['miss', 'hit']);
  });

  it('speaks RFC 7662 to any other URL, or when told to', async () => {
    const settings = {
      authUrl: introspection.url('/oauth2/introspect'),
      authClientId: ERX.clientId,
      authClientSecret: ERX.clientSecret,
    };
    const store = openSqliteStore(':memory:');
    await createTokenChecker(settings, store, undefined).check('t1');
    await createTokenChecker(
      { ...settings, authUrl: introspection.url(GET_TOKEN_INFO), authProtocol: 'rfc7662' },
      store,
      undefined,
    ).check('t2');
    for (const request of introspection.received) {
      assert.deepEqual(parseBasicCredentials(request.headers.authorization), ERX);
      assert.equal(request.form.get('token_type_hint'), 'access_token');
      assert.equal(request.form.get('client_secret'), null);
    }
    assert.equal(introspection.received.length, 2);
  });

  it('refuses an external URL without erx client credentials', () => {
    const settings = {
      authUrl: introspection.url('/introspect'),
      authClientId: 'erx',
      authClientSecret: undefined,
    };
    assert.throws(
      () => createTokenChecker(settings, openSqliteStore(':memory:'), undefined),
      (error: unknown) => error instanceof ErxError && error.code === 'bad_request',
    );
  });
});
