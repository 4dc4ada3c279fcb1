/**
 * Appending never makes time run backwards along a chain: while this instance's clock is behind
 * the chain's last event (the clock stepped back, or another instance whose clock is ahead
 * appended it), the new event is dated at that event, and the chain still verifies. A head moved
 * between the read and the write makes the append read and decide again, a bounded number of
 * times, then answer 503 with `Retry-After`.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { isErxError } from '../../errors.js';
import { Clock, appendEvent, parseTimestamp } from '../../ledger/index.js';
import { StaleHead } from '../../store/races.js';
import type { HeldChain, Store } from '../../store/types.js';
import { APPEND_ATTEMPTS } from './append.js';
import { timestampAt } from '../../../test/support/ledger/chain.js';
import { appendHeld } from '../../../test/store-contract/fixture.js';
import { PHARMACIST, as, createSample, withService } from '../../../test/support/service.js';
import type { ServiceUnderTest } from '../../../test/support/service.js';

const HOUR = 60 * 60 * 1000;
const LOCK_TTL_MS = 15 * 60_000;

/**
 * `store`'s `holdChain` as seen by a process whose first `stale` writes find the head moved by
 * another process (they signal `StaleHead` and write nothing); counts the chains held.
 */
function losingRaces(store: Store, stale: number) {
  let holds = 0;
  const holdChain = async (id: string): Promise<HeldChain | undefined> => {
    const held = await store.holdChain(id);
    if (held === undefined || ++holds > stale) return held;
    return {
      state: held.state,
      append: () => Promise.reject(new StaleHead()),
      release: () => held.release(),
    };
  };
  return { holdChain, holds: () => holds };
}

/**
 * The sample prescription, created through `s`, and a second service over the same parts whose
 * first `stale` writes lose their race (see {@link losingRaces}).
 */
async function racedService(s: ServiceUnderTest, stale: number) {
  const { id } = await createSample(s.service);
  const raced = losingRaces(s.parts.store, stale);
  const { service } = s.restart({ store: { holdChain: raced.holdChain } });
  return { id, service, holds: raced.holds };
}

test('while the clock is behind the last event, new events are dated at it, and verify', async () => {
  await withService({ lockTtlMs: LOCK_TTL_MS }, async ({ parts, service }) => {
    const { id, link } = await createSample(service);
    // Another instance, its clock an hour ahead, locked the prescription.
    const ahead = timestampAt(new Date(Date.now() + HOUR));
    await appendHeld(parts.store, id, async (state) => {
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
    assert.equal(expires - parseTimestamp(ahead).epochNanos, BigInt(LOCK_TTL_MS) * 1_000_000n);
    const answer = (await service.verify(link, PHARMACIST)).answer as {
      valid: boolean;
      tampering_detection_result: { logs_check_passed: boolean };
    };
    assert.equal(answer.tampering_detection_result.logs_check_passed, true);
  });
});

test('a head moved before the write makes the append read and decide again, then append', async () => {
  await withService(async (s) => {
    const { id, service, holds } = await racedService(s, APPEND_ATTEMPTS - 1);
    const locked = await service.lock(id, undefined, as(PHARMACIST));
    assert.equal(locked.type, 'lock');
    assert.equal(holds(), APPEND_ATTEMPTS);
    const events = (await s.parts.store.readChain(id))?.state.events ?? [];
    assert.deepEqual(
      events.map((e) => e.id),
      [events[0]!.id, locked.id],
    );
  });
});

test('an append whose head keeps moving answers 503 busy with Retry-After, writing nothing', async () => {
  await withService(async (s) => {
    const { id, service, holds } = await racedService(s, Infinity);
    await assert.rejects(
      service.lock(id, undefined, as(PHARMACIST)),
      (e: unknown) => isErxError(e) && e.code === 'service_unavailable' && e.retryAfter === 1,
    );
    assert.equal(holds(), APPEND_ATTEMPTS);
    assert.equal((await s.parts.store.readChain(id))?.state.events.length, 1);
  });
});
