/**
 * Someone who can write the database but holds no key (docs/security.md): rows they write
 * authenticate nobody. A `tokens` row holding the SHA-256 of a token of their choosing, for the
 * demo prescriber, gets 401 where it once revoked the prescriber's prescription; a pharmacist's
 * token whose row they re-point to the prescriber gets 401 instead of acting as the prescriber;
 * `clients` rows with self-made secret hashes do not authenticate at the token endpoint, neither
 * before nor after a restart (older hashes are bound to the pepper at the first start only).
 * The rows are written over a connection of their own: the SQLite file, or the PostgreSQL
 * database with ERX_TEST_ENGINE=postgres.
 */
import assert from 'node:assert/strict';
import { createHash, randomBytes, scryptSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { sqlitePath } from '../../src/server/open-store.js';
import { ensureDemoClients } from '../../src/server/demo-clients.js';
import type { DemoClient } from '../../src/server/demo-clients.js';
import { assertError } from '../support/e2e.js';
import { samplePrescription } from '../support/fixtures.js';
import { fetchToken } from '../support/http.js';
import type { Answer } from '../support/http.js';
import { createTestDatabase, withConnection } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { listenServer } from '../support/server.js';
import type { ListeningServer } from '../support/server.js';

const FORM = 'application/x-www-form-urlencoded';

/** Runs `statement` (with `?` placeholders) on the server's database over a connection of its own. */
async function write(server: ListeningServer, statement: string, values: unknown[]) {
  const url = server.runtime.config.databaseUrl;
  if (url !== undefined) {
    let n = 0;
    const text = statement.replace(/\?/g, () => `$${++n}`);
    await withConnection(url, (c) => c.query(text, values));
    return;
  }
  const db = new Database(sqlitePath(server.dataDir));
  try {
    db.pragma('busy_timeout = 5000');
    db.prepare(statement).run(...values);
  } finally {
    db.close();
  }
}

/** A secret hash as erx wrote them before they were bound, made by whoever chose the secret. */
function selfMadeHash(secret: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(secret, salt, 32, { N: 1024, r: 8, p: 1 });
  return ['scrypt', 1024, 8, 1, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** The same form, relabelled as the bound one: without the pepper its MAC cannot be right. */
function guessedBoundHash(secret: string): string {
  return selfMadeHash(secret).replace(/^scrypt\$/, 'scrypt-hmac$');
}

describe('rows written into the database without the pepper', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'erx-inserted-rows-'));
  let database: TestDatabase | undefined;
  let server: ListeningServer;
  let prescriber: DemoClient;
  let pharmacist: DemoClient;
  let rxId: string;

  const start = () =>
    listenServer({
      dataDir,
      env: database === undefined ? {} : { ERX_DATABASE_URL: database.url },
    });

  before(async () => {
    if (process.env.ERX_TEST_ENGINE === 'postgres') database = await createTestDatabase();
    server = await start();
    const demo = await ensureDemoClients(server.runtime.tokens!, dataDir);
    assert.ok(demo?.created, 'the first start creates the demo clients');
    prescriber = demo.clients.find((c) => c.role === 'prescriber')!;
    pharmacist = demo.clients.find((c) => c.role === 'pharmacist')!;
    const token = await fetchToken(server.url, prescriber.clientId, prescriber.clientSecret);
    const created = await server.request('POST', '/ePrescription/create?output-format=data', {
      token,
      body: JSON.stringify(samplePrescription()),
      contentType: 'application/json',
    });
    assert.equal(created.status, 200, created.text);
    rxId = created.json.prescription_id as string;
  });

  after(async () => {
    await server?.close();
    await database?.drop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const revoke = (token: string): Promise<Answer> =>
    server.request('POST', `/ePrescription/revoke/${rxId}`, { token });
  const events = async () =>
    ((await server.runtime.store.readChain(rxId))?.state.events ?? []).length;
  const tokenRequest = (clientId: string, secret: string): Promise<Answer> =>
    server.request('POST', '/REST/v1/OAuth/token', {
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: clientId,
        client_secret: secret,
      }).toString(),
      contentType: FORM,
    });

  it('a tokens row with the SHA-256 of a chosen token does not revoke as the prescriber', async () => {
    const chosen = randomBytes(32).toString('base64url');
    const sha256 = createHash('sha256').update(chosen, 'utf8').digest('hex');
    const now = Date.now();
    await write(
      server,
      'INSERT INTO tokens (token_hash, client_id, expires_at, created_at) VALUES (?, ?, ?, ?)',
      [sha256, prescriber.clientId, now + 3_600_000, now],
    );
    assertError(await revoke(chosen), 401, 'unauthorized', 'invalid_token');
    assert.equal(await events(), 1, 'nothing appended');
    // The token check of the token service does not know it either.
    const info = await server.request('POST', '/REST/v1/OAuth/GetTokenInfo', {
      body: new URLSearchParams({
        token: chosen,
        client_id: pharmacist.clientId,
        client_secret: pharmacist.clientSecret,
      }).toString(),
      contentType: FORM,
    });
    assert.equal(info.status, 200, info.text);
    assert.deepEqual(info.json, { active: false });
  });

  it('a pharmacist’s token whose row is re-pointed to the prescriber does not revoke', async () => {
    // Issued and never used, so that no answer about it is remembered.
    const token = await fetchToken(server.url, pharmacist.clientId, pharmacist.clientSecret);
    await write(server, 'UPDATE tokens SET client_id = ? WHERE client_id = ?', [
      prescriber.clientId,
      pharmacist.clientId,
    ]);
    assertError(await revoke(token), 401, 'unauthorized', 'invalid_token');
    assert.equal(await events(), 1, 'nothing appended');
  });

  it('clients rows with self-made secret hashes get no token, before and after a restart', async () => {
    const rows = [
      { clientId: 'intruder-older-form', hash: selfMadeHash('chosen-secret-1') },
      { clientId: 'intruder-bound-form', hash: guessedBoundHash('chosen-secret-1') },
    ];
    for (const { clientId, hash } of rows) {
      await write(
        server,
        'INSERT INTO clients (client_id, secret_hash, role, name, description, sub, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [clientId, hash, 'prescriber', prescriber.name, '', prescriber.sub, Date.now()],
      );
    }
    const refusedAll = async () => {
      for (const { clientId } of rows) {
        assertError(
          await tokenRequest(clientId, 'chosen-secret-1'),
          401,
          'unauthorized',
          'invalid_client',
        );
      }
    };
    await refusedAll();
    // A restart binds no hash written since the first start.
    await server.close();
    server = await start();
    await refusedAll();
    // The genuine prescriber still authenticates and may revoke its prescription.
    const token = await fetchToken(server.url, prescriber.clientId, prescriber.clientSecret);
    assert.equal((await revoke(token)).status, 200);
    assert.equal(await events(), 2);
  });
});
