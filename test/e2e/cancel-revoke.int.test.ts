/**
 * Cancel and revoke over a real socket (SPEC.md §5 "Rules of state", "Roles"): what a cancel
 * undoes, which events cannot be cancelled, ownership, revocation being final, and the event count
 * unchanged after every refusal.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { MED_A, MED_B, SUBSTITUTE, roomyPrescription } from '../support/fixtures.js';
import { calls, createPrescription, eventCount, expectationsOn, verify } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';

describe('cancel and revoke', () => {
  const server = useTestServer();
  const call = calls(server);
  const { appends, refuses, revoked } = expectationsOn(server);

  describe('cancel', () => {
    it('cancels its own partial dispensation: not cancellable afterwards, items gone', async () => {
      // Roomy: the sample forbids substituting MED_B, and this test is about cancel.
      const rx = await createPrescription(server, roomyPrescription());
      const keep = await appends(
        rx.id,
        call.dispenseItems(rx.id, server.pharmacist, [{ id: MED_A, amount: 1 }]),
        'partial_dispense',
      );
      const undo = await appends(
        rx.id,
        call.dispenseItems(rx.id, server.pharmacist, [
          { id: MED_B, amount: 2, substitute: SUBSTITUTE, substitute_id_type: 2 },
        ]),
        'partial_dispense',
      );
      const event = await appends(rx.id, call.cancel(rx.id, undo.id, server.pharmacist), 'cancel');
      assert.deepEqual(event.event_data, { EventId: undo.id });
      // A cancel is itself cancellable by its actor (SPEC.md §5).
      assert.equal(event.cancellable, true);
      const result = await verify(server, rx.link, server.pharmacist.token);
      const byId = new Map(result.events.map((e: { id: string }) => [e.id, e]));
      assert.equal((byId.get(undo.id) as { cancellable: boolean }).cancellable, false);
      assert.equal((byId.get(keep.id) as { cancellable: boolean }).cancellable, true);
      assert.deepEqual(
        result.partial_dispensations.map((p: { medicine_id: string }) => p.medicine_id),
        [MED_A],
      );
      assert.equal(result.dispensed, false);
    });

    it('cancels its own full dispensation: dispensed is false again, dispense works again', async () => {
      const rx = await createPrescription(server);
      const fullEvent = await appends(
        rx.id,
        call.dispenseFull(rx.id, server.pharmacist),
        'full_dispense',
      );
      // Fully dispensed: items without force are refused (seed §7); record them forced.
      await refuses(
        rx.id,
        call.dispenseItems(rx.id, server.pharmacist, [{ id: MED_A, amount: 1 }]),
        403,
        'forbidden',
        'unknown_error',
      );
      const forcedItems = await appends(
        rx.id,
        call.dispenseItems(rx.id, server.pharmacist, [{ id: MED_B, amount: 1 }], '?force=true'),
        'partial_dispense',
      );
      await appends(rx.id, call.cancel(rx.id, fullEvent.id, server.pharmacist), 'cancel');
      await appends(rx.id, call.cancel(rx.id, forcedItems.id, server.pharmacist), 'cancel');
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.equal(result.dispensed, false);
      assert.deepEqual(result.partial_dispensations, []);
      assert.equal((await verify(server, rx.link)).dispensed, false);
      await appends(rx.id, call.dispenseFull(rx.id, server.pharmacist2), 'full_dispense');
    });

    it('answers 404 for an unknown event, an event of another prescription, an unknown prescription', async () => {
      const rx = await createPrescription(server);
      const other = await createPrescription(server);
      const foreign = await appends(
        other.id,
        call.dispenseFull(other.id, server.pharmacist),
        'full_dispense',
      );
      await refuses(rx.id, call.cancel(rx.id, randomUUID(), server.pharmacist), 404, 'not_found');
      await refuses(rx.id, call.cancel(rx.id, foreign.id, server.pharmacist), 404, 'not_found');
      const id = randomUUID();
      await refuses(id, call.cancel(id, foreign.id, server.pharmacist), 404, 'not_found');
      assert.equal(await eventCount(server, other.id), 2);
    });

    it('refuses to cancel create, lock and unlock events with 409', async () => {
      const rx = await createPrescription(server);
      const [createEvent] = (await verify(server, rx.link, server.doctor.token)).events;
      await refuses(rx.id, call.cancel(rx.id, createEvent.id, server.doctor), 409, 'conflict');
      const locked = await appends(rx.id, call.lock(rx.id, server.pharmacist), 'lock');
      const unlocked = await appends(rx.id, call.unlock(rx.id, server.pharmacist), 'unlock');
      await refuses(rx.id, call.cancel(rx.id, locked.id, server.pharmacist), 409, 'conflict');
      await refuses(rx.id, call.cancel(rx.id, unlocked.id, server.pharmacist), 409, 'conflict');
    });

    it('undoes a cancel by cancelling it: the packages count again, and undoing it again cancels anew', async () => {
      const rx = await createPrescription(server, roomyPrescription());
      const dispensed = await appends(
        rx.id,
        call.dispenseItems(rx.id, server.pharmacist, [{ id: MED_A, amount: 1 }]),
        'partial_dispense',
      );
      const packagesOfA = async (): Promise<number> => {
        const result = await verify(server, rx.link, server.pharmacist.token);
        return result.medicaments.find((m: { id: string }) => m.id === MED_A).dispensed;
      };
      const undo = await appends(
        rx.id,
        call.cancel(rx.id, dispensed.id, server.pharmacist),
        'cancel',
      );
      assert.equal(await packagesOfA(), 0);
      const redo = await appends(rx.id, call.cancel(rx.id, undo.id, server.pharmacist), 'cancel');
      assert.deepEqual(redo.event_data, { EventId: undo.id });
      assert.equal(await packagesOfA(), 1, 'undoing the undo restores the dispensation');
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.deepEqual(
        result.partial_dispensations.map((p: { medicine_id: string }) => p.medicine_id),
        [MED_A],
      );
      const cancellable = new Map(
        result.events.map((e: { id: string; cancellable: boolean }) => [e.id, e.cancellable]),
      );
      // Each event is named by one cancel at most: the newest cancel is the one to undo.
      assert.deepEqual(
        [dispensed.id, undo.id, redo.id].map((id) => cancellable.get(id)),
        [false, false, true],
      );
      await appends(rx.id, call.cancel(rx.id, redo.id, server.pharmacist), 'cancel');
      assert.equal(await packagesOfA(), 0, 'undoing the redo cancels the dispensation again');
    });

    it('refuses to cancel the same cancel twice with 409, and another actor its cancel with 403', async () => {
      const rx = await createPrescription(server);
      const dispensed = await appends(
        rx.id,
        call.dispenseFull(rx.id, server.pharmacist),
        'full_dispense',
      );
      const undo = await appends(
        rx.id,
        call.cancel(rx.id, dispensed.id, server.pharmacist),
        'cancel',
      );
      await refuses(rx.id, call.cancel(rx.id, undo.id, server.pharmacist2), 403, 'forbidden');
      await appends(rx.id, call.cancel(rx.id, undo.id, server.pharmacist), 'cancel');
      await refuses(
        rx.id,
        call.cancel(rx.id, undo.id, server.pharmacist),
        409,
        'conflict',
        'not_cancellable',
      );
      assert.equal((await verify(server, rx.link)).dispensed, true);
    });

    it('refuses to cancel an event that is cancelled already with 409', async () => {
      const rx = await createPrescription(server);
      const dispensed = await appends(
        rx.id,
        call.dispenseItems(rx.id, server.pharmacist, [{ id: MED_A, amount: 1 }]),
        'partial_dispense',
      );
      await appends(rx.id, call.cancel(rx.id, dispensed.id, server.pharmacist), 'cancel');
      await refuses(rx.id, call.cancel(rx.id, dispensed.id, server.pharmacist), 409, 'conflict');
    });

    it("refuses to cancel someone else's event with 403", async () => {
      const rx = await createPrescription(server);
      const dispensed = await appends(
        rx.id,
        call.dispenseFull(rx.id, server.pharmacist),
        'full_dispense',
      );
      for (const actor of [server.pharmacist2, server.doctor, server.doctor2]) {
        await refuses(rx.id, call.cancel(rx.id, dispensed.id, actor), 403, 'forbidden');
      }
      // The prescriber's own create event is not someone else's, but it is not cancellable.
      const [createEvent] = (await verify(server, rx.link, server.pharmacist.token)).events;
      await refuses(rx.id, call.cancel(rx.id, createEvent.id, server.pharmacist), 403, 'forbidden');
    });

    it('refuses any cancel on a revoked prescription with 403 revoked, the revoke event included', async () => {
      const rx = await createPrescription(server);
      const dispensed = await appends(
        rx.id,
        call.dispenseItems(rx.id, server.pharmacist, [{ id: MED_A, amount: 1 }]),
        'partial_dispense',
      );
      const revokeEvent = await appends(rx.id, call.revoke(rx.id, server.doctor), 'revoke');
      assert.equal(revokeEvent.cancellable, false);
      await refuses(
        rx.id,
        call.cancel(rx.id, dispensed.id, server.pharmacist),
        403,
        'forbidden',
        'revoked',
      );
      await refuses(
        rx.id,
        call.cancel(rx.id, revokeEvent.id, server.doctor),
        403,
        'forbidden',
        'revoked',
      );
    });

    it('answers 401 without a token', async () => {
      const rx = await createPrescription(server);
      const dispensed = await appends(
        rx.id,
        call.dispenseFull(rx.id, server.pharmacist),
        'full_dispense',
      );
      await refuses(rx.id, call.cancel(rx.id, dispensed.id), 401, 'unauthorized');
    });
  });

  describe('revoke', () => {
    it('lets the issuer revoke; verify then shows revoked in both variants', async () => {
      const rx = await createPrescription(server);
      const event = await appends(rx.id, call.revoke(rx.id, server.doctor), 'revoke');
      assert.equal(event.actor, server.doctor.sub);
      assert.deepEqual(event.event_data, {});
      assert.equal((await verify(server, rx.link)).revoked, true);
      const result = await verify(server, rx.link, server.pharmacist.token);
      assert.equal(result.revoked, true);
      assert.equal(result.events.at(-1).type, 'revoke');
    });

    it('lets the issuer revoke a dispensed prescription', async () => {
      const rx = await createPrescription(server);
      await appends(rx.id, call.dispenseFull(rx.id, server.pharmacist), 'full_dispense');
      await appends(rx.id, call.revoke(rx.id, server.doctor), 'revoke');
      const result = await verify(server, rx.link);
      assert.equal(result.revoked, true);
      assert.equal(result.dispensed, true);
    });

    it('refuses a second revoke with 409', async () => {
      const rx = await revoked();
      await refuses(rx.id, call.revoke(rx.id, server.doctor), 409, 'conflict');
    });

    it('refuses another prescriber and any pharmacist with 403', async () => {
      const rx = await createPrescription(server);
      await refuses(rx.id, call.revoke(rx.id, server.doctor2), 403, 'forbidden');
      await refuses(rx.id, call.revoke(rx.id, server.pharmacist), 403, 'forbidden');
      await refuses(rx.id, call.revoke(rx.id, server.pharmacist2), 403, 'forbidden');
      assert.equal((await verify(server, rx.link)).revoked, false);
    });

    it('answers 404 for an unknown prescription and 401 without a token', async () => {
      const id = randomUUID();
      await refuses(id, call.revoke(id, server.doctor), 404, 'not_found');
      const rx = await createPrescription(server);
      await refuses(rx.id, call.revoke(rx.id), 401, 'unauthorized');
    });
  });
});
