import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { openSqliteStore } from '../store/sqlite/sqlite-store.js';
import { EmbeddedTokenChecker } from './embedded-token-checker.js';
import { Pepper } from './pepper.js';
import { TokenService } from './token-service.js';

const START = Date.UTC(2025, 0, 2, 8, 0, 0, 500);

describe('EmbeddedTokenChecker', () => {
  let now: number;
  let service: TokenService;
  let checker: EmbeddedTokenChecker;
  let token: string;

  beforeEach(async () => {
    const store = openSqliteStore(':memory:');
    now = START;
    const pepper = new Pepper(randomBytes(32));
    service = new TokenService(store, pepper, { now: () => now, tokenLifetimeSeconds: 600 });
    checker = new EmbeddedTokenChecker(store, pepper, { now: () => now });
    await service.addClient({
      clientId: 'doc1',
      secret: 'practice-secret-1',
      role: 'prescriber',
      name: 'Dr. Anna Muster',
      sub: 'HIN|doc1',
    });
    const issued = await service.issueToken({
      grantType: 'client_credentials',
      clientId: 'doc1',
      clientSecret: 'practice-secret-1',
    });
    token = issued.access_token;
  });

  it('answers the principal of an active token', async () => {
    assert.deepEqual(await checker.check(token), {
      sub: 'HIN|doc1',
      name: 'Dr. Anna Muster',
      role: 'prescriber',
      clientId: 'doc1',
      expiresAt: Math.floor(START / 1000) + 600,
    });
  });

  it('answers undefined for an unknown, empty or oversized token', async () => {
    assert.equal(await checker.check(token.slice(1)), undefined);
    assert.equal(await checker.check(''), undefined);
    assert.equal(await checker.check('a'.repeat(5000)), undefined);
  });

  it('answers undefined once the token has expired', async () => {
    now = (Math.floor(START / 1000) + 600) * 1000 - 1;
    assert.equal((await checker.check(token))?.sub, 'HIN|doc1');
    now += 1;
    assert.equal(await checker.check(token), undefined);
  });

  it('answers undefined after the client was removed', async () => {
    await service.removeClient('doc1');
    assert.equal(await checker.check(token), undefined);
  });
});
