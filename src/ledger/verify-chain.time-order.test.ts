/**
 * Time never runs backwards along a chain: an event dated before its predecessor fails at that
 * event, though signed by a leaf valid at its date; the same time and later pass.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TrustStore } from '../pki/index.js';
import type { LedgerRecord } from './event.js';
import { EventVerifier } from './event-verifier.js';
import { eventSignedWith } from '../../test/support/ledger/backdate.js';
import { makeChain, memoryPki, timestampAt } from '../../test/support/ledger/chain.js';
import { loadVectors } from '../../test/support/ledger/vectors.js';
import { parseEventBody } from './parse-event-body.js';
import { formatTimestamp, parseTimestamp } from './timestamp.js';
import { verifyChain } from './verify-chain.js';
import { VerificationMemory } from '../memory/verification-memory.js';

describe('time never runs backwards along a chain', () => {
  const MINUTE = 60_000;

  async function chainOf(length: number) {
    const pki = await memoryPki();
    const events = await makeChain(pki.signer, { length });
    const reference = JSON.parse(events[0]!.body).reference as string;
    const verifier = new EventVerifier(pki.trustStore, new VerificationMemory());
    const check = (chain: typeof events) =>
      verifyChain(
        { prescriptionId: reference, events: chain, headHash: chain.at(-1)!.hash },
        verifier,
      );
    const timeOf = (i: number) => parseTimestamp(JSON.parse(events[i]!.body).timestamp).date;
    /** Checks the chain with one more event, dated `timestamp`, by a leaf valid at that time. */
    const checkWithNext = async (timestamp: string) => {
      const key = await pki.signer.keyAt(parseTimestamp(timestamp).date);
      return check([
        ...events,
        await eventSignedWith(events.at(-1)!, { reference, timestamp }, key),
      ]);
    };
    return { events, timeOf, checkWithNext };
  }

  test('a dispense signed by a real leaf but dated before the create event fails at that event', async () => {
    const { timeOf, checkWithNext } = await chainOf(1);
    const at = new Date(timeOf(0).getTime() - 18 * MINUTE);
    // A leaf of the real root, valid at that time: the signature and certificate checks pass.
    const result = await checkWithNext(timestampAt(at));
    assert.deepEqual(
      [result.ok, result.firstBadIndex, result.failedCheck, result.reason],
      [false, 1, 'time', 'timestamp_decreases'],
    );
    // Its signature was checked, and holds: the time check runs after it.
    assert.equal(result.bodies.length, 2);
  });

  test('an event dated between the create event and its predecessor fails at that event', async () => {
    const { timeOf, checkWithNext } = await chainOf(3);
    const at = new Date((timeOf(0).getTime() + timeOf(1).getTime()) / 2);
    const result = await checkWithNext(timestampAt(at));
    assert.deepEqual([result.ok, result.firstBadIndex, result.failedCheck], [false, 3, 'time']);
  });

  test('one nanosecond back fails; the same time and later pass', async () => {
    const { events, checkWithNext } = await chainOf(2);
    const last = parseTimestamp(JSON.parse(events[1]!.body).timestamp).epochNanos;
    const back = await checkWithNext(formatTimestamp(last - 1n));
    assert.deepEqual([back.ok, back.firstBadIndex, back.reason], [false, 2, 'timestamp_decreases']);
    assert.equal((await checkWithNext(formatTimestamp(last))).ok, true);
    assert.equal((await checkWithNext(formatTimestamp(last + 1n))).ok, true);
  });
});

describe('time order vectors: an event dated before its predecessor fails, the same time passes', () => {
  const vectors = loadVectors<
    { prescriptionId: string; trustedRoots: string[]; events: LedgerRecord[]; headHash: string },
    { ok: boolean; firstBadIndex?: number; failedCheck?: string; reason?: string }
  >('time-order.json');
  for (const vector of vectors) {
    test(vector.description ?? vector.source, async () => {
      const roots = vector.input.trustedRoots.map(
        (b64) => new Uint8Array(Buffer.from(b64, 'base64')),
      );
      const verifier = new EventVerifier(
        await TrustStore.fromCertificates(roots),
        new VerificationMemory(),
      );
      const result = await verifyChain(vector.input, verifier);
      assert.deepEqual(
        {
          ok: result.ok,
          firstBadIndex: result.firstBadIndex,
          failedCheck: result.failedCheck,
          reason: result.reason,
        },
        {
          firstBadIndex: undefined,
          failedCheck: undefined,
          reason: undefined,
          ...vector.expected,
        },
      );
      assert.equal(result.bodies.length, vector.input.events.length);
      // Every event is signed by a leaf of the root valid at its date, the one dated too early
      // too: only the time check tells it apart.
      for (const record of vector.input.events) {
        const parsed = parseEventBody(record.body);
        assert.ok(parsed.ok);
        assert.equal(await verifier.verify(record, parsed.body), undefined);
      }
    });
  }
});
