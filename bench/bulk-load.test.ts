/**
 * The bulk loader writes what the service itself would: every chain passes the audit of
 * `erx audit verify`, and the service's own verify finds each loaded link valid, with its events.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../src/config/index.js';
import { EventVerifier, verifyChain } from '../src/ledger/index.js';
import { openStore } from '../src/server/open-store.js';
import { openKeys, openRuntime } from '../src/server/runtime.js';
import { auditChains } from '../src/service/audit.js';
import type { VerifyFull } from '../src/service/index.js';
import { runCli } from '../test/support/child-server.js';
import { bulkLoad } from './bulk-load.js';

const URL_BASE = 'http://erx.test/rx/';
const prescriber = { name: 'Dr. med. Test', sub: 'HIN|test.doctor' };
const pharmacist = { name: 'Apotheke Test', sub: 'HIN|test.pharmacy' };

test('50 bulk-loaded prescriptions verify like ones made through the API', async () => {
  const root = mkdtempSync(join(tmpdir(), 'erx-bulk-load-'));
  const dataDir = join(root, 'data');
  try {
    const loaded = await bulkLoad({
      dataDir,
      prescriptionUrl: URL_BASE,
      prescriber,
      pharmacist,
      workers: 2,
      groups: [
        { name: 'five', count: 40, events: 5, keepIds: 40, keepLinks: 40 },
        { name: 'ten', count: 10, events: 10, keepIds: 10, keepLinks: 10 },
      ],
    });
    assert.equal(loaded.prescriptions, 50);
    assert.equal(loaded.events, 40 * 5 + 10 * 10);
    const five = loaded.kept.five!;
    const ten = loaded.kept.ten!;
    assert.equal(five.ids.length, 40);
    assert.equal(ten.links.length, 10);

    const store = await openStore({ dataDir, databaseUrl: undefined });
    try {
      const { pki, linkKeys } = await openKeys(dataDir);
      const audit = await auditChains(store, new EventVerifier(pki.trustStore), {
        linkKeys,
        prescriptionValidityMs: loadConfig({}).prescriptionValidityMs,
      });
      assert.equal(audit.checked, 50);
      assert.equal(audit.events, 300);
      assert.deepEqual(audit.failures, []);

      const verifier = new EventVerifier(pki.trustStore);
      for (const [ids, length] of [
        [five.ids, 5],
        [ten.ids, 10],
      ] as const) {
        for (const id of ids) {
          const state = await store.getChain(id);
          assert.ok(state, id);
          assert.equal(state.events.length, length);
          const chain = await verifyChain(
            { prescriptionId: id, events: state.events, headHash: state.prescription.headHash },
            verifier,
          );
          assert.equal(chain.ok, true, `${id}: ${chain.failedCheck} ${chain.reason}`);
        }
      }
    } finally {
      await store.close();
    }

    const audit = runCli(['audit', 'verify'], { ERX_DATA_DIR: dataDir });
    assert.equal(audit.status, 0, audit.stdout + audit.stderr);
    assert.match(audit.stdout, /audit: 50 prescriptions, 300 events, 0 failed/);

    const runtime = await openRuntime(
      loadConfig({ ERX_DATA_DIR: dataDir, ERX_PRESCRIPTION_URL: URL_BASE, PORT: '0' }),
    );
    try {
      const principal = {
        ...pharmacist,
        role: 'pharmacist',
        clientId: 'test',
        expiresAt: 0,
      } as const;
      for (const [index, link] of ten.links.entries()) {
        const answer = (await runtime.service.verify(link, principal)).answer as VerifyFull;
        assert.equal(answer.prescription_id, ten.ids[index]);
        assert.equal(answer.valid, true);
        assert.deepEqual(answer.tampering_detection_result, {
          prescription_url_valid: true,
          prescription_hash_check_passed: true,
          logs_check_passed: true,
        });
        assert.equal(answer.events.length, 10);
        assert.equal(answer.partial_dispensations.length, 9);
      }
    } finally {
      await runtime.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
