/**
 * The copies a prescription row keeps beside its chain, edited directly in the database while erx
 * runs (SPEC.md §10, last point: every decision rests on signed data). An `issuer_actor` naming
 * another prescriber gives that prescriber nothing, and a medicament list with more packages is
 * never obeyed: every change is refused with 409 `ledger_corrupt` and appends nothing, verify
 * says the prescription is not valid, and `erx audit verify` reports the terms.
 *
 * The edits go through a second connection (SQLite: the server's file; PostgreSQL: the test
 * database). The running server sees them without a restart: the SQLite store forgets its
 * remembered chains when another connection commits, and PostgreSQL remembers none.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { auditChains } from '../../src/service/operations/audit.js';
import { signOldTerms } from '../../src/service/operations/sign-old-terms.js';
import { MED_A } from '../support/fixtures.js';
import {
  assertError,
  calls,
  createPrescription,
  eventCount,
  expectationsOn,
  verify,
  withItems,
} from '../support/e2e.js';
import type { Call } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { withRows } from '../tamper/server-rows.js';

/** What `erx audit verify` reports of prescription `id`, run over the server's own store. */
async function auditOf(server: TestServer, id: string) {
  const { deps } = server.runtime.service;
  const report = await auditChains(deps.store, deps.verifier, {
    linkKeys: deps.linkKeys,
    prescriptionValidityMs: deps.prescriptionValidityMs,
  });
  return report.failures.find((f) => f.prescriptionId === id);
}

describe('stored copies edited in the database', () => {
  const server = useTestServer();
  const call = calls(server);
  const { refuses } = expectationsOn(server);
  const corrupt = (id: string, c: Call) => refuses(id, c, 409, 'conflict', 'ledger_corrupt');

  it('an issuer_actor naming another prescriber: every revoke refused, verify invalid', async () => {
    const rx = await createPrescription(server);
    assert.equal((await verify(server, rx.link, server.pharmacist.token)).valid, true);
    await withRows(server, (rows) =>
      rows.setPrescription(rx.id, 'issuer_actor', server.doctor2.sub),
    );

    // The prescriber the row now names: refused either as corrupt or as not the issuer.
    const before = await eventCount(server, rx.id);
    const byOther = await call.revoke(rx.id, server.doctor2)();
    assert.ok([403, 409].includes(byOther.status), byOther.text);
    if (byOther.status === 409) assertError(byOther, 409, 'conflict', 'ledger_corrupt');
    else assertError(byOther, 403, 'forbidden');
    assert.equal(await eventCount(server, rx.id), before, 'a refused revoke appended an event');
    // The real issuer cannot act on a row that fails its terms either, nor can a pharmacy.
    await corrupt(rx.id, call.revoke(rx.id, server.doctor));
    await corrupt(rx.id, call.full(rx.id));

    const answer = await verify(server, rx.link, server.pharmacist.token);
    assert.equal(answer.valid, false);
    assert.equal(answer.revoked, false);
    assert.equal(answer.tampering_detection_result.prescription_hash_check_passed, false);
    assert.equal(answer.tampering_detection_result.logs_check_passed, true);
    // The issuer is the create event's signed actor: the prescriber the row names sees no more
    // than anyone else (the short variant).
    const other = await verify(server, rx.link, server.doctor2.token);
    assert.deepEqual(Object.keys(other).sort(), [
      'dispensed',
      'issued_at',
      'issued_by',
      'prescription_id',
      'revoked',
      'valid',
    ]);
    assert.equal(other.valid, false);

    assert.deepEqual(await auditOf(server, rx.id), {
      prescriptionId: rx.id,
      firstBadIndex: undefined,
      failedCheck: 'terms',
      reason: 'issuer',
    });
    assert.equal(await eventCount(server, rx.id), 1);
  });

  it('a medicament list with 50 packages instead of 1: dispense refused, verify and audit report it', async () => {
    const rx = await createPrescription(server);
    const twoOfA = withItems([{ id: MED_A, amount: 2 }]);
    // Before the edit: one package of MED_A is prescribed, so two are too many.
    await refuses(rx.id, call.dispense(rx.id, twoOfA), 403, 'forbidden', 'quantity_exceeded');
    assert.equal((await verify(server, rx.link, server.pharmacist.token)).valid, true);

    await withRows(server, async (rows) => {
      const row = await rows.prescription(rx.id);
      const list = JSON.parse(String(row.medicaments)) as { Id: string; NbPack?: number }[];
      assert.equal(list.find((m) => m.Id === MED_A)?.NbPack, 1);
      const edited = list.map((m) => (m.Id === MED_A ? { ...m, NbPack: 50 } : m));
      await rows.setPrescription(rx.id, 'medicaments', JSON.stringify(edited));
    });

    // Never obeyed, not even forced: the row's copies fail their signature.
    await corrupt(rx.id, call.dispense(rx.id, twoOfA));
    await corrupt(
      rx.id,
      call.dispense(rx.id, withItems([{ id: MED_A, amount: 2 }], '?force=true')),
    );
    await corrupt(rx.id, call.full(rx.id));

    const answer = await verify(server, rx.link, server.pharmacist.token);
    assert.equal(answer.valid, false);
    assert.equal(answer.dispensed, false);
    assert.equal(answer.tampering_detection_result.prescription_hash_check_passed, false);
    assert.equal(answer.tampering_detection_result.logs_check_passed, true);
    assert.equal((await verify(server, rx.link)).valid, false, 'the short variant too');

    assert.deepEqual(await auditOf(server, rx.id), {
      prescriptionId: rx.id,
      firstBadIndex: undefined,
      failedCheck: 'terms',
      reason: 'terms_signature',
    });
    assert.equal(await eventCount(server, rx.id), 1);
  });

  it('terms removed along with an edited list: refused until erx migrate vouches for the row', async () => {
    const rx = await createPrescription(server);
    const twoOfA = withItems([{ id: MED_A, amount: 2 }]);
    await withRows(server, async (rows) => {
      const row = await rows.prescription(rx.id);
      const list = JSON.parse(String(row.medicaments)) as { Id: string; NbPack?: number }[];
      const edited = list.map((m) => (m.Id === MED_A ? { ...m, NbPack: 50 } : m));
      await rows.setPrescription(rx.id, 'medicaments', JSON.stringify(edited));
      await rows.setPrescription(rx.id, 'terms', null);
    });

    // A row without terms looks like one written before terms existed, and is refused all the same.
    await corrupt(rx.id, call.dispense(rx.id, twoOfA));
    await corrupt(rx.id, call.revoke(rx.id, server.doctor));
    assert.equal((await verify(server, rx.link, server.pharmacist.token)).valid, false);
    assert.deepEqual(await auditOf(server, rx.id), {
      prescriptionId: rx.id,
      firstBadIndex: undefined,
      failedCheck: 'terms',
      reason: 'terms_missing',
    });
    assert.equal(await eventCount(server, rx.id), 1);

    // The operator's `erx migrate` signs rows without terms as they stand, once; rows with terms
    // are left as they are.
    const { deps } = server.runtime.service;
    const validity = deps.prescriptionValidityMs;
    assert.equal(await signOldTerms(deps.store, () => deps.linkKeys, validity), 1);
    assert.equal(await signOldTerms(deps.store, () => deps.linkKeys, validity), 0);
    assert.equal(await auditOf(server, rx.id), undefined);
    const accepted = await call.dispense(rx.id, twoOfA)();
    assert.equal(accepted.status, 200, accepted.text);
    assert.equal(await eventCount(server, rx.id), 2);
  });
});
