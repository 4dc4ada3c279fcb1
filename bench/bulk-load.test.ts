/**
 * The bulk loader writes what the service itself would: every chain and its signed terms pass the
 * audit of `erx audit verify`, the service's own verify finds each loaded link valid, with its
 * events, its expiry from the document's `Dt` and its medicaments' packages, and a dispense
 * through the service is decided from the loaded terms (SPEC.md §10).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { loadConfig } from '../src/config/index.js';
import { ErxError } from '../src/errors.js';
import { EventVerifier, verifyChain } from '../src/ledger/index.js';
import { openStore } from '../src/server/open-store.js';
import { openKeys, openRuntime } from '../src/server/runtime.js';
import { auditChains } from '../src/service/operations/audit.js';
import type { VerifyFull } from '../src/service/index.js';
import { expiryOf, prescribedPackages } from '../src/service/rules/terms.js';
import { runCli } from '../test/support/child-server.js';
import { bulkLoad } from './bulk-load.js';
import { loadSample } from './data/document.js';
import { VerificationMemory } from '../src/memory/verification-memory.js';

const URL_BASE = 'http://erx.test/rx/';
const prescriber = { name: 'Dr. med. Test', sub: 'HIN|test.doctor' };
const pharmacist = { name: 'Apotheke Test', sub: 'HIN|test.pharmacy' };

test('50 bulk-loaded prescriptions verify like ones made through the API', async () => {
  const root = mkdtempSync(join(tmpdir(), 'erx-bulk-load-'));
  const dataDir = join(root, 'data');
  const validityMs = loadConfig({}).prescriptionValidityMs;
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
    // The document as loaded: dated when its links were issued, with the dispensed quantity.
    const sample = loadSample(new Date(loaded.issuedAt * 1000));
    const expiresAt = expiryOf(sample.document.Dt, validityMs, sample.medicaments);
    assert.ok(expiresAt !== undefined && expiresAt > Date.now());
    // The largest Rep, 24 months, is longer than the default year.
    assert.ok(expiresAt > loaded.issuedAt * 1000 + validityMs);
    /** The verify answer's medicaments once `dispensed` packages of the dispensed one are gone. */
    const medicamentsAfter = (dispensed: number): VerifyFull['medicaments'] =>
      sample.medicaments.map((m) => {
        const prescribed = prescribedPackages(m);
        const taken = m.Id === sample.medicamentId ? dispensed : 0;
        return {
          id: m.Id,
          prescribed,
          dispensed: taken,
          remaining: prescribed - taken,
          substitution_allowed: m.Subs !== 1,
        };
      });

    const store = await openStore({ dataDir, databaseUrl: undefined });
    try {
      const { pki, linkKeys } = await openKeys(dataDir);
      const audit = await auditChains(
        store,
        new EventVerifier(pki.trustStore, new VerificationMemory()),
        {
          linkKeys,
          prescriptionValidityMs: validityMs,
        },
      );
      assert.equal(audit.checked, 50);
      assert.equal(audit.events, 300);
      assert.deepEqual(audit.failures, []);

      const verifier = new EventVerifier(pki.trustStore, new VerificationMemory());
      for (const [ids, length] of [
        [five.ids, 5],
        [ten.ids, 10],
      ] as const) {
        for (const id of ids) {
          const state = (await store.readChain(id))?.state;
          assert.ok(state, id);
          assert.equal(state.events.length, length);
          // Create's copies, and its terms: without them erx takes the row for an older one's.
          assert.deepEqual(state.prescription.medicaments, sample.medicaments);
          assert.equal(state.prescription.terms?.expiresAt, expiresAt, id);
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

    const audit = await runCli(['audit', 'verify'], { ERX_DATA_DIR: dataDir });
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
        assert.equal(Date.parse(answer.expires_at), expiresAt);
        assert.equal(answer.expired, false);
        assert.deepEqual(answer.medicaments, medicamentsAfter(9));
      }

      // A loaded prescription is decided on like a created one: its terms verify, so a dispense
      // within the quantity is taken, one past it and a substitute for Subs 1 are refused.
      const id = five.ids[0]!;
      const ctx = { principal };
      const item = { id: sample.medicamentId, amount: 1 };
      const taken = await runtime.service.dispense(id, [item], { force: false }, ctx);
      assert.equal(taken.type, 'partial_dispense');
      assert.deepEqual(taken.event_data, {});
      assert.deepEqual(taken.dispenses, [item]);
      const remaining = sample.dispensable - 5;
      await assert.rejects(
        runtime.service.dispense(id, [{ ...item, amount: remaining + 1 }], { force: false }, ctx),
        (error: unknown) =>
          error instanceof ErxError &&
          error.code === 'forbidden' &&
          error.causeCode === 'quantity_exceeded',
      );
      await assert.rejects(
        runtime.service.dispense(
          id,
          [{ ...item, substitute: 'Generikum', substitute_id_type: 2 }],
          { force: false },
          ctx,
        ),
        (error: unknown) =>
          error instanceof ErxError &&
          error.code === 'forbidden' &&
          error.causeCode === 'substitution_not_allowed',
      );
      const last = await runtime.service.dispense(
        id,
        [{ ...item, amount: remaining }],
        { force: false },
        ctx,
      );
      assert.deepEqual(last.event_data, {});
      // The other medicament is still to dispense: the prescription is not complete.
      const after = (await runtime.service.verify(five.links[0]!, principal)).answer as VerifyFull;
      assert.equal(after.prescription_id, id);
      assert.equal(after.dispensed, false);
      assert.deepEqual(after.medicaments, medicamentsAfter(sample.dispensable));
    } finally {
      await runtime.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
