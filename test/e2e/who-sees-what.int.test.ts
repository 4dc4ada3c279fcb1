/**
 * Who sees what (SPEC.md §10) over a real socket: the variant with transactions for pharmacists
 * and the issuing prescriber only, the short variant for everyone else; for a link whose signature
 * fails, the variant with transactions only for the issuer and the pharmacies that dispensed or
 * cancelled on the chain (a lock or unlock alone involves no one), and for anyone else a short
 * answer built from the link alone: byte for byte the same whether its id
 * exists or not and whatever state the prescription is in, so a bare id is no oracle.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { withChangedContent, withChangedSignature } from '../support/forged-links.js';
import { calls, createPrescription, expectationsOn, verify } from '../support/e2e.js';
import type { Created, JsonObject } from '../support/e2e.js';
import { MED_A } from '../support/fixtures.js';
import type { Answer } from '../support/http.js';
import type { Actor } from '../support/server.js';
import { useTestServer } from '../support/server.js';

/** The seed §2.3 fields: all the short variant has. */
const SHORT_KEYS = ['dispensed', 'issued_at', 'issued_by', 'prescription_id', 'revoked', 'valid'];
/** The variant with transactions of a prescription neither dispensed nor locked (SPEC.md §10). */
const FULL_KEYS = [
  ...SHORT_KEYS,
  'events',
  'expired',
  'expires_at',
  'locked',
  'medicaments',
  'partial_dispensations',
  'tampering_detection_result',
];
const WHEN_DISPENSED = ['dispensed_at', 'dispensed_by'];
const WHEN_LOCKED = ['locked_at', 'locked_by'];

/** `link` with its document's `Id` replaced by `id`, issuer, time and signature kept. */
function withId(link: string, id: string): string {
  return withChangedContent(link, (doc) => ({ ...doc, Id: id }));
}

/** A link no key signed: a plain-JSON document holding only `id`, and a signature of zeros. */
function unsigned(id: string): string {
  return `x:y#CHMED16A0{"Id":"${id}"}&i=x&t=1&s=${'0'.repeat(128)}`;
}

/** The body of `answer` with every occurrence of `id` replaced by a placeholder. */
function withoutId(answer: Answer, id: string): Buffer {
  return Buffer.from(answer.text.replaceAll(id, '<id>'), 'utf8');
}

describe('who sees what (SPEC.md §10)', () => {
  const server = useTestServer();
  const { appends } = expectationsOn(server);
  const call = calls(server);

  /** Verifies `link` as `actor` (none: without a token), the answer read whole. */
  function post(link: string, actor?: Actor): Promise<Answer> {
    const options = { body: link, contentType: 'text/plain' };
    return server.request(
      'POST',
      '/ePrescription/verify',
      actor ? { ...options, token: actor.token } : options,
    );
  }

  /**
   * Asserts that the bad-signature link `existing` (naming prescription `id`) and `unknown`
   * (naming `unknownId`, which does not exist) get the same short answer, all flags false.
   */
  async function assertNoOracle(
    [existing, id]: [string, string],
    [unknown, unknownId]: [string, string],
    actor?: Actor,
  ): Promise<void> {
    const a = await post(existing, actor);
    const b = await post(unknown, actor);
    for (const [answer, expectedId] of [
      [a, id],
      [b, unknownId],
    ] as const) {
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(Object.keys(answer.json).sort(), SHORT_KEYS);
      assert.equal(answer.json.prescription_id, expectedId);
      assert.equal(answer.json.valid, false);
      assert.equal(answer.json.revoked, false);
      assert.equal(answer.json.dispensed, false);
    }
    assert.ok(
      withoutId(a, id).equals(withoutId(b, unknownId)),
      `different answers:\n${a.text}\n${b.text}`,
    );
  }

  /** Asserts no oracle for both kinds of bad link to `rx`, without a token and as `doctor2`. */
  async function assertNoOracleFor(rx: Created): Promise<void> {
    const unknownId = randomUUID();
    for (const actor of [undefined, server.doctor2]) {
      await assertNoOracle(
        [withChangedSignature(rx.link), rx.id],
        [withChangedSignature(withId(rx.link, unknownId)), unknownId],
        actor,
      );
      await assertNoOracle([unsigned(rx.id), rx.id], [unsigned(unknownId), unknownId], actor);
    }
  }

  describe('a link whose signature fails, short variant', () => {
    it('answers the same for an existing id as for an unknown one', async () => {
      const rx = await createPrescription(server);
      // The link itself verifies: only the changed signature makes the difference.
      assert.equal((await verify(server, rx.link)).valid, true);
      await assertNoOracleFor(rx);
    });

    it('answers the same when the existing prescription is dispensed', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.full(rx.id), 'full_dispense');
      assert.equal((await verify(server, rx.link)).dispensed, true);
      await assertNoOracleFor(rx);
    });

    it('answers the same when the existing prescription is revoked', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.revoke(rx.id, server.doctor), 'revoke');
      assert.equal((await verify(server, rx.link)).revoked, true);
      await assertNoOracleFor(rx);
    });

    it('answers the same when the existing prescription is locked', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      await assertNoOracleFor(rx);
    });
  });

  describe('a valid link', () => {
    it('gives another prescriber exactly the short variant, and the issuer the full one', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.full(rx.id), 'full_dispense');
      // Asked in both orders: one caller's variant is never answered to the other.
      for (const order of [
        [server.doctor, server.doctor2],
        [server.doctor2, server.doctor],
      ]) {
        for (const actor of order) {
          const result = await verify(server, rx.link, actor.token);
          const expected = actor === server.doctor ? [...FULL_KEYS, ...WHEN_DISPENSED] : SHORT_KEYS;
          assert.deepEqual(Object.keys(result).sort(), expected.sort(), actor.clientId);
          assert.equal(result.prescription_id, rx.id);
          assert.equal(result.valid, true);
          assert.equal(result.revoked, false);
          assert.equal(result.dispensed, true);
        }
      }
    });

    it('gives the anonymous caller exactly the short variant with the state', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.revoke(rx.id, server.doctor), 'revoke');
      const result = await verify(server, rx.link);
      assert.deepEqual(Object.keys(result).sort(), SHORT_KEYS);
      assert.equal(result.valid, true);
      assert.equal(result.revoked, true);
      assert.equal(result.dispensed, false);
    });

    it('gives pharmacists the full variant, whose keys follow the state', async () => {
      const rx = await createPrescription(server);
      const keysNow = async (actor: Actor) =>
        Object.keys(await verify(server, rx.link, actor.token)).sort();
      for (const actor of [server.pharmacist, server.pharmacist2]) {
        assert.deepEqual(await keysNow(actor), [...FULL_KEYS].sort());
      }
      await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      assert.deepEqual(await keysNow(server.pharmacist2), [...FULL_KEYS, ...WHEN_LOCKED].sort());
      await appends(rx.id, call.full(rx.id), 'full_dispense');
      assert.deepEqual(
        await keysNow(server.pharmacist2),
        [...FULL_KEYS, ...WHEN_LOCKED, ...WHEN_DISPENSED].sort(),
      );
      await appends(rx.id, call.unlock(rx.id, server.pharmacist), 'unlock');
      const result = await verify(server, rx.link, server.pharmacist2.token);
      assert.deepEqual(Object.keys(result).sort(), [...FULL_KEYS, ...WHEN_DISPENSED].sort());
      assert.equal(result.dispensed_by, server.pharmacist.sub);
      assert.equal(result.valid, true);
      assert.deepEqual(result.tampering_detection_result, {
        prescription_url_valid: true,
        prescription_hash_check_passed: true,
        logs_check_passed: true,
      });
    });
  });

  describe('a link whose signature fails, variant with transactions', () => {
    it('shows the issuer and a pharmacy that dispensed the tamper checks and events of a forged link', async () => {
      const rx = await createPrescription(server);
      await appends(
        rx.id,
        call.dispenseItems(rx.id, server.pharmacist, [{ id: MED_A, amount: 1 }]),
        'partial_dispense',
      );
      for (const actor of [server.pharmacist, server.doctor]) {
        const result = await verify(server, withChangedSignature(rx.link), actor.token);
        assert.deepEqual(Object.keys(result).sort(), [...FULL_KEYS].sort(), actor.clientId);
        assert.equal(result.prescription_id, rx.id);
        assert.equal(result.valid, false);
        assert.deepEqual(result.tampering_detection_result, {
          prescription_url_valid: false,
          prescription_hash_check_passed: true,
          logs_check_passed: true,
        });
        assert.deepEqual(
          (result.events as JsonObject[]).map((e) => e.type),
          ['create', 'partial_dispense'],
        );
        assert.equal(result.partial_dispensations.length, 1);
      }
    });

    it('gives a pharmacy that only locked and unlocked the anonymous short answer, all flags false', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.full(rx.id), 'full_dispense');
      await appends(rx.id, call.lock(rx.id, server.pharmacist2), 'lock');
      await appends(rx.id, call.unlock(rx.id, server.pharmacist2), 'unlock');
      const forged = withChangedSignature(rx.link);
      const anonymous = await post(forged);
      assert.deepEqual(Object.keys(anonymous.json).sort(), SHORT_KEYS);
      assert.deepEqual(
        [anonymous.json.valid, anonymous.json.revoked, anonymous.json.dispensed],
        [false, false, false],
      );
      const uninvolved = await post(forged, server.pharmacist2);
      assert.equal(uninvolved.status, 200, uninvolved.text);
      assert.equal(uninvolved.text, anonymous.text);
      // No oracle for it either: an unknown id gets the same answer, not a 404.
      const unknownId = randomUUID();
      await assertNoOracle(
        [forged, rx.id],
        [withChangedSignature(withId(rx.link, unknownId)), unknownId],
        server.pharmacist2,
      );
      // The pharmacy that dispensed still sees the checks.
      const involved = await verify(server, forged, server.pharmacist.token);
      assert.deepEqual(
        (involved.events as JsonObject[]).map((e) => e.type),
        ['create', 'full_dispense', 'lock', 'unlock'],
      );
    });

    it('shows a pharmacy the forged link history from its first dispense or cancel on', async () => {
      const rx = await createPrescription(server);
      const forged = withChangedSignature(rx.link);
      assert.deepEqual(
        Object.keys(await verify(server, forged, server.pharmacist2.token)).sort(),
        SHORT_KEYS,
      );
      const partial = await appends(
        rx.id,
        call.dispenseItems(rx.id, server.pharmacist2, [{ id: MED_A, amount: 1 }]),
        'partial_dispense',
      );
      await appends(rx.id, call.cancel(rx.id, partial.id, server.pharmacist2), 'cancel');
      const result = await verify(server, forged, server.pharmacist2.token);
      assert.deepEqual(Object.keys(result).sort(), [...FULL_KEYS].sort());
      assert.equal(result.tampering_detection_result.prescription_url_valid, false);
    });

    it('shows a pharmacy that dispensed that an unsigned link does not match the stored prescription', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.full(rx.id), 'full_dispense');
      const result = await verify(server, unsigned(rx.id), server.pharmacist.token);
      assert.deepEqual(Object.keys(result).sort(), [...FULL_KEYS, ...WHEN_DISPENSED].sort());
      assert.equal(result.valid, false);
      assert.equal(result.tampering_detection_result.prescription_url_valid, false);
      assert.equal(result.tampering_detection_result.prescription_hash_check_passed, false);
      assert.deepEqual(
        (result.events as JsonObject[]).map((e) => e.type),
        ['create', 'full_dispense'],
      );
    });
  });
});
