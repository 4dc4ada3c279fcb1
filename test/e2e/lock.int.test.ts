/**
 * Lock and unlock over a real socket (SPEC.md §5 "Rules of state", "Roles"; §10 "Locks lapse"):
 * the lock, its `locked_at`, `locked_by` and recorded `expires_at`, 409 on a second lock, 423
 * naming the holder for everyone else, who may unlock, and the event count unchanged after every
 * refusal. The lapse itself is in test/e2e/prescription-rules.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { MED_A, MED_B } from '../support/fixtures.js';
import { calls, createPrescription, expectationsOn, verify } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';

/** The default `ERX_LOCK_TTL` (SPEC.md §10). */
const LOCK_TTL_MINUTES = 15;

/** Event timestamp `timestamp` plus `minutes`, in the same format (its fraction kept). */
function minutesAfter(timestamp: string, minutes: number): string {
  const whole = timestamp.slice(0, 19);
  const later = new Date(Date.parse(`${whole}Z`) + minutes * 60_000).toISOString().slice(0, 19);
  return `${later}${timestamp.slice(19)}`;
}

describe('lock and unlock', () => {
  const server = useTestServer();
  const call = calls(server);
  const { appends, refuses, revoked } = expectationsOn(server);

  describe('lock and unlock', () => {
    it('locks with a reason; verify shows locked and locked_at = the lock event time', async () => {
      const rx = await createPrescription(server);
      const event = await appends(
        rx.id,
        call.lock(rx.id, server.pharmacist, '?reason=Beratung%20am%20Schalter'),
        'lock',
      );
      const eventData = {
        reason: 'Beratung am Schalter',
        expires_at: minutesAfter(event.timestamp, LOCK_TTL_MINUTES),
      };
      assert.deepEqual(event.event_data, eventData);
      assert.equal(event.cancellable, false);
      const result = await verify(server, rx.link, server.pharmacist2.token);
      assert.deepEqual(Object.keys(result).sort(), [
        'dispensed',
        'events',
        'expired',
        'expires_at',
        'issued_at',
        'issued_by',
        'locked',
        'locked_at',
        'locked_by',
        'medicaments',
        'partial_dispensations',
        'prescription_id',
        'revoked',
        'tampering_detection_result',
        'valid',
      ]);
      assert.equal(result.locked, true);
      assert.equal(result.locked_at, event.timestamp);
      assert.match(result.locked_at, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,9}Z$/);
      assert.equal(result.locked_by, server.pharmacist.name);
      const lockEvent = result.events.find((e: { id: string }) => e.id === event.id);
      assert.deepEqual(lockEvent.event_data, eventData);
      // The short variant does not show the lock.
      assert.deepEqual(Object.keys(await verify(server, rx.link)).sort(), [
        'dispensed',
        'issued_at',
        'issued_by',
        'prescription_id',
        'revoked',
        'valid',
      ]);
    });

    it('locks without a reason with only expires_at in event_data', async () => {
      const rx = await createPrescription(server);
      const event = await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      assert.deepEqual(event.event_data, {
        expires_at: minutesAfter(event.timestamp, LOCK_TTL_MINUTES),
      });
    });

    it('refuses a second lock with 409, by the holder and by anyone else', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      await refuses(rx.id, call.lock(rx.id, server.pharmacist), 409, 'conflict');
      await refuses(rx.id, call.lock(rx.id, server.pharmacist2), 409, 'conflict');
    });

    it("refuses others' dispense and cancel with 423 naming the holder", async () => {
      const rx = await createPrescription(server);
      const own = await appends(
        rx.id,
        call.dispenseItems(rx.id, server.pharmacist2, [{ id: MED_A, amount: 1 }]),
        'partial_dispense',
      );
      await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      for (const refusal of [
        call.dispenseFull(rx.id, server.pharmacist2),
        call.dispenseFull(rx.id, server.pharmacist2, '?force=true'),
        call.dispenseItems(rx.id, server.pharmacist2, [{ id: MED_A, amount: 1 }]),
        call.cancel(rx.id, own.id, server.pharmacist2),
      ]) {
        const answer = await refuses(rx.id, refusal, 423, 'locked');
        assert.ok(
          (answer.json.message as string).includes(server.pharmacist.name),
          answer.json.message,
        );
      }
    });

    it('lets the holder dispense and cancel its own dispensation while locked', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      const partial = await appends(
        rx.id,
        call.dispenseItems(rx.id, server.pharmacist, [{ id: MED_B, amount: 1 }]),
        'partial_dispense',
      );
      await appends(rx.id, call.cancel(rx.id, partial.id, server.pharmacist), 'cancel');
      await appends(rx.id, call.dispenseFull(rx.id, server.pharmacist), 'full_dispense');
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.equal(result.locked, true);
      assert.equal(result.dispensed, true);
    });

    it('refuses unlock by another pharmacist and by a prescriber who did not issue it (403)', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      await refuses(rx.id, call.unlock(rx.id, server.pharmacist2), 403, 'forbidden');
      await refuses(rx.id, call.unlock(rx.id, server.doctor2), 403, 'forbidden');
    });

    it('lets the issuer unlock', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      const event = await appends(
        rx.id,
        call.unlock(rx.id, server.doctor, '?reason=Patient%20gegangen'),
        'unlock',
      );
      assert.equal(event.actor, server.doctor.sub);
      assert.deepEqual(event.event_data, { reason: 'Patient gegangen' });
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.equal(result.locked, false);
      assert.equal('locked_at' in result || 'locked_by' in result, false);
      // Unlocked: another pharmacist may dispense again.
      await appends(rx.id, call.dispenseFull(rx.id, server.pharmacist2), 'full_dispense');
    });

    it('lets the holder unlock, and then anyone lock again', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      await appends(rx.id, call.unlock(rx.id, server.pharmacist), 'unlock');
      const relock = await appends(rx.id, call.lock(rx.id, server.pharmacist2), 'lock');
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.equal(result.locked_at, relock.timestamp);
    });

    it('refuses unlock when not locked with 409', async () => {
      const rx = await createPrescription(server);
      await refuses(rx.id, call.unlock(rx.id, server.pharmacist), 409, 'conflict');
      await refuses(rx.id, call.unlock(rx.id, server.doctor), 409, 'conflict');
    });

    it('lets the issuer revoke while a pharmacy holds the lock', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      await appends(rx.id, call.revoke(rx.id, server.doctor), 'revoke');
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.equal(result.revoked, true);
    });

    it('lets the issuer lock and unlock, and refuses a prescriber who did not issue it (403)', async () => {
      const rx = await createPrescription(server);
      await refuses(rx.id, call.lock(rx.id, server.doctor2), 403, 'forbidden', 'not_owner');
      await appends(rx.id, call.lock(rx.id, server.doctor), 'lock');
      await refuses(rx.id, call.dispenseFull(rx.id, server.pharmacist), 423, 'locked');
      await appends(rx.id, call.unlock(rx.id, server.doctor), 'unlock');
      await appends(rx.id, call.dispenseFull(rx.id, server.pharmacist), 'full_dispense');
    });

    it('refuses lock and unlock on a revoked prescription with 403 revoked', async () => {
      const rx = await revoked();
      await refuses(rx.id, call.lock(rx.id, server.pharmacist), 403, 'forbidden', 'revoked');
      await refuses(rx.id, call.unlock(rx.id, server.pharmacist), 403, 'forbidden', 'revoked');
      await refuses(rx.id, call.unlock(rx.id, server.doctor), 403, 'forbidden', 'revoked');
    });

    it('answers 404 for an unknown prescription and 401 without a token', async () => {
      const id = randomUUID();
      await refuses(id, call.lock(id, server.pharmacist), 404, 'not_found');
      await refuses(id, call.unlock(id, server.pharmacist), 404, 'not_found');
      const rx = await createPrescription(server);
      await refuses(rx.id, call.lock(rx.id), 401, 'unauthorized');
      await refuses(rx.id, call.unlock(rx.id), 401, 'unauthorized');
    });

    it('refuses a reason longer than 500 characters with 400', async () => {
      const rx = await createPrescription(server);
      await refuses(
        rx.id,
        call.lock(rx.id, server.pharmacist, `?reason=${'x'.repeat(501)}`),
        400,
        'bad_request',
      );
    });
  });
});
