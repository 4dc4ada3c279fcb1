/**
 * Smaller attacks, each against a real server:
 * - control characters (NUL, ESC, TAB, C1) in the free text a caller writes into a signed event
 *   (lock and unlock reasons in the query or the body, a forced dispense's reason, a substitute)
 *   are refused with 400 naming the field, and nothing is appended; so are bidirectional controls
 *   (U+202A–U+202E, U+2066–U+2069) in that text, and control characters in a medicament `Id` and
 *   in a dispensed item's `id`;
 * - a reason whose percent-encoding is malformed (`%FF`, a truncated UTF-8 sequence, a lone `%`)
 *   is refused with 400, not recorded as the literal text;
 * - the demo clients' secrets are printed at the first start only; a later start names the file
 *   that keeps them and prints a token command that reads it;
 * - a client cannot be registered with the `sub` of a client of the other role (409), and
 *   `erx audit verify` reports such pairs that a store already holds.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { isErxError } from '../../src/errors.js';
import type { DemoClient } from '../../src/server/demo-clients.js';
import { serve } from '../../src/server/serve.js';
import { runCli } from '../support/child-server.js';
import { createPrescription, expectRefused, json } from '../support/e2e.js';
import { MED_A, SUBSTITUTE, roomyPrescription } from '../support/fixtures.js';
import { fetchToken } from '../support/http.js';
import type { Answer } from '../support/http.js';
import { useTestServer } from '../support/server.js';

describe('free text of signed events and its encoding', () => {
  const server = useTestServer();

  const post = (path: string, options = {}): Promise<Answer> =>
    server.request('POST', path, { token: server.pharmacist.token, ...options });

  /** A 400 naming `path` among its violations, with nothing appended to prescription `id`. */
  async function refusedNaming(
    id: string,
    call: () => Promise<Answer>,
    path: string,
  ): Promise<void> {
    const answer = await expectRefused(server, id, call, 400, 'bad_request');
    const paths = (answer.json.violations as { path: string }[]).map((v) => v.path);
    assert.ok(paths.includes(path), `${path} not in ${JSON.stringify(answer.json.violations)}`);
  }

  it('refuses C0 and C1 control characters in reasons and substitutes, naming the field', async () => {
    const { id } = await createPrescription(server, roomyPrescription());
    for (const text of [
      'NUL\u0000',
      'ESC\u001b[2J',
      'tab\there',
      'line\nbreak',
      'DEL\u007f',
      'NEL\u0085',
      'CSI\u009b',
    ]) {
      const query = encodeURIComponent(text);
      await refusedNaming(id, () => post(`/ePrescription/lock/${id}?reason=${query}`), '/reason');
      await refusedNaming(
        id,
        () => post(`/ePrescription/lock/${id}`, json({ reason: text })),
        '/reason',
      );
      await refusedNaming(id, () => post(`/ePrescription/unlock/${id}?reason=${query}`), '/reason');
      await refusedNaming(
        id,
        () =>
          post(`/ePrescription/dispense/${id}?force=true&reason=${query}`, {
            contentType: 'application/json',
          }),
        '/reason',
      );
      await refusedNaming(
        id,
        () =>
          post(
            `/ePrescription/dispense/${id}`,
            json([{ id: MED_A, amount: 1, substitute: text, substitute_id_type: 1 }]),
          ),
        '/0/substitute',
      );
    }
  });

  it('refuses bidi controls in reasons and substitutes, naming the field', async () => {
    const { id } = await createPrescription(server, roomyPrescription());
    for (const text of [
      'RLO\u202eevil',
      'LRE\u202a',
      'PDF\u202c',
      'LRI\u2066x\u2069',
      'FSI\u2068',
    ]) {
      const query = encodeURIComponent(text);
      await refusedNaming(id, () => post(`/ePrescription/lock/${id}?reason=${query}`), '/reason');
      await refusedNaming(
        id,
        () => post(`/ePrescription/unlock/${id}`, json({ reason: text })),
        '/reason',
      );
      await refusedNaming(
        id,
        () =>
          post(
            `/ePrescription/dispense/${id}`,
            json([{ id: MED_A, amount: 1, substitute: text, substitute_id_type: 1 }]),
          ),
        '/0/substitute',
      );
    }
  });

  it('refuses control characters in a medicament Id and a dispensed id, naming the field', async () => {
    const { id } = await createPrescription(server, roomyPrescription());
    for (const text of ['ESC\u001b[2J', 'NUL\u0000', 'CSI\u009b31m']) {
      await refusedNaming(
        id,
        () => post(`/ePrescription/dispense/${id}`, json([{ id: text, amount: 1 }])),
        '/0/id',
      );
      const doc = roomyPrescription();
      (doc.Medicaments as Record<string, unknown>[])[0]!.Id = text;
      const created = await server.request(
        'POST',
        '/ePrescription/create?output-format=data',
        json(doc, { token: server.doctor.token }),
      );
      assert.equal(created.status, 400, created.text);
      const paths = (created.json.violations as { path: string; code: string }[]).map(
        (v) => `${v.path} ${v.code}`,
      );
      assert.ok(paths.includes('/Medicaments/0/Id plain_text'), JSON.stringify(paths));
    }
  });

  it('refuses a reason whose percent-encoding is malformed, naming it', async () => {
    const { id } = await createPrescription(server, roomyPrescription());
    for (const bad of ['%FF', 'caf%C3', '%E2%82', '50%', '%ZZ', '%C0%80', '%ED%A0%80']) {
      await refusedNaming(id, () => post(`/ePrescription/lock/${id}?reason=${bad}`), '/reason');
      await refusedNaming(
        id,
        () =>
          post(`/ePrescription/dispense/${id}?force=true&reason=${bad}`, {
            contentType: 'application/json',
          }),
        '/reason',
      );
    }
  });

  it('records well-formed text as it was meant: letters of any script, a percent sign', async () => {
    const { id } = await createPrescription(server, roomyPrescription());
    const locked = await post(
      `/ePrescription/lock/${id}?reason=${encodeURIComponent('Rückfrage 50% — 医生 ✓')}`,
    );
    assert.equal(locked.status, 200, locked.text);
    assert.equal(locked.json.event_data.reason, 'Rückfrage 50% — 医生 ✓');
    const unlocked = await post(`/ePrescription/unlock/${id}`, json({ reason: 'erledigt' }));
    assert.equal(unlocked.status, 200, unlocked.text);
    const substituted = await post(
      `/ePrescription/dispense/${id}`,
      json([{ id: MED_A, amount: 1, substitute: SUBSTITUTE, substitute_id_type: 2 }]),
    );
    assert.equal(substituted.status, 200, substituted.text);
  });
});

describe('demo clients: their secrets are printed at the first start only', () => {
  let dataDir: string;
  before(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'erx-demo-'));
  });
  after(() => rmSync(dataDir, { recursive: true, force: true }));

  /** `erx serve` over `dataDir` on a free port: answers what it printed, and its address. */
  async function start(): Promise<{ printed: string; url: string; close: () => Promise<void> }> {
    let printed = '';
    const config = loadConfig({
      ERX_DATA_DIR: dataDir,
      PORT: '0',
      ERX_METRICS_ADDR: 'off',
      ERX_LOG_LEVEL: 'error',
      ERX_PRESCRIPTION_URL: 'http://erx.test/rx/',
    });
    const { runtime, url } = await serve(config, {}, (text) => (printed += text));
    return { printed, url, close: () => runtime.close() };
  }

  it('prints them once, then where they are kept and how to get a token', async () => {
    const first = await start();
    await first.close();
    const file = join(dataDir, 'demo-clients.json');
    const demo = JSON.parse(readFileSync(file, 'utf8')) as DemoClient[];
    assert.equal(demo.length, 2);
    for (const client of demo) assert.ok(first.printed.includes(client.clientSecret));

    const later = await start();
    try {
      for (const client of demo) {
        assert.ok(
          !later.printed.includes(client.clientSecret),
          `a later start printed the secret of ${client.clientId}:\n${later.printed}`,
        );
        assert.ok(later.printed.includes(client.clientId));
      }
      assert.ok(later.printed.includes(file), `the file is not named:\n${later.printed}`);
      assert.match(later.printed, /REST\/v1\/OAuth\/token/);
      // What the printed command does: the credentials of the file get a token.
      for (const client of demo) {
        assert.ok(await fetchToken(later.url, client.clientId, client.clientSecret));
      }
    } finally {
      await later.close();
    }
  });
});

describe('one sub has one role', () => {
  const server = useTestServer();

  it('refuses to register a client with the sub of a client of the other role (409)', async () => {
    const secret = 'evil-secret-0123456789';
    for (const [clientId, role, sub] of [
      ['evil-pharmacy', 'pharmacist', server.doctor.sub],
      ['evil-practice', 'prescriber', server.pharmacist.sub],
    ] as const) {
      await assert.rejects(
        server.runtime.tokens!.addClient({ clientId, secret, role, name: 'Evil', sub }),
        (error: unknown) =>
          isErxError(error) &&
          error.code === 'conflict' &&
          error.causeCode === 'sub_has_other_role',
      );
      assert.equal(await server.runtime.store.clients.get(clientId), undefined);
      await assert.rejects(fetchToken(server.url, clientId, secret), /401/);
    }
    // Another client of the same role may share a sub (a second system of the same practice).
    await server.runtime.tokens!.addClient({
      clientId: 'doctor1-laptop',
      secret,
      role: 'prescriber',
      name: server.doctor.name,
      sub: server.doctor.sub,
    });
    assert.ok(await fetchToken(server.url, 'doctor1-laptop', secret));
  });

  it('reports in erx audit verify a sub that a store holds in both roles', async () => {
    // As a store written before erx refused it holds it: straight into the store.
    await server.runtime.store.clients.add({
      clientId: 'legacy-pharmacy',
      // Never used: the client is only looked at, not authenticated.
      secretHash: 'unused',
      role: 'pharmacist',
      name: 'Alte Apotheke',
      description: '',
      sub: server.doctor2.sub,
      createdAt: Date.now(),
    });
    const { databaseUrl } = server.runtime.config;
    const audit = await runCli(['audit', 'verify'], {
      ERX_DATA_DIR: server.dataDir,
      ...(databaseUrl === undefined ? {} : { ERX_DATABASE_URL: databaseUrl }),
    });
    assert.equal(audit.status, 1, audit.stdout + audit.stderr);
    assert.match(
      audit.stdout,
      new RegExp(
        `^CLIENTS ${server.doctor2.sub.replace('|', '\\|')}: held by prescriber doctor2 and pharmacist legacy-pharmacy`,
        'm',
      ),
    );
    assert.match(audit.stdout, / 0 failed, 0 log findings\n/);
  });
});
