/**
 * Appending never makes time run backwards along a chain: while this instance's clock is behind
 * the chain's last event (the clock stepped back, or another instance whose clock is ahead
 * appended it), the new event is dated at that event, and the chain still verifies.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Clock, appendEvent, parseTimestamp } from '../ledger/index.js';
import { timestampAt } from '../../test/support/ledger/chain.js';
import {
  PHARMACIST,
  as,
  createSample,
  serviceOver,
  withServiceParts,
} from '../../test/support/service.js';

const HOUR = 60 * 60 * 1000;

test('while the clock is behind the last event, new events are dated at it, and verify', async () => {
  await withServiceParts(async (parts) => {
    const lockTtlMs = 15 * 60_000;
    const { service } = serviceOver(parts, { lockTtlMs });
    const { id, link } = await createSample(service);
    // Another instance, its clock an hour ahead, locked the prescription.
    const ahead = timestampAt(new Date(Date.now() + HOUR));
    await parts.store.appendEvent(id, async (state) => {
      const event = await appendEvent(
        state.events.at(-1),
        {
          type: 'lock',
          reference: id,
          actor: PHARMACIST.sub,
          actor_name: PHARMACIST.name,
          timestamp: ahead,
        },
        parts.pki.signer,
        new Clock(),
      );
      return { event: { ...event, prescriptionId: id } };
    });
    const unlocked = await service.unlock(id, undefined, as(PHARMACIST));
    assert.equal(unlocked.timestamp, ahead);
    const locked = await service.lock(id, undefined, as(PHARMACIST));
    assert.equal(locked.timestamp, ahead);
    // The lock lapses its time-to-live after the time it records.
    const expires = parseTimestamp(String(locked.event_data.expires_at)).epochNanos;
    assert.equal(expires - parseTimestamp(ahead).epochNanos, BigInt(lockTtlMs) * 1_000_000n);
    const answer = (await service.verify(link, PHARMACIST)).answer as {
      valid: boolean;
      tampering_detection_result: { logs_check_passed: boolean };
    };
    assert.equal(answer.tampering_detection_result.logs_check_passed, true);
  });
});
