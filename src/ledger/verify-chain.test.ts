import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { LeafSigner, MemoryPkiStorage, TrustStore } from '../pki/index.js';
import type { LedgerRecord } from './event.js';
import { EventVerifier } from './event-verifier.js';
import { eventSignedWith } from '../../test/support/ledger/backdate.js';
import { makeChain, memoryPki, timestampAt } from '../../test/support/ledger/chain.js';
import { loadVectors } from '../../test/support/ledger/vectors.js';
import { parseEventBody } from './parse-event-body.js';
import { tamperDetectionResult } from './tamper-detection.js';
import { formatTimestamp, parseTimestamp } from './timestamp.js';
import { verifyChain } from './verify-chain.js';
import { VerificationMemory } from '../memory/verification-memory.js';

const HOUR = 60 * 60 * 1000;

describe('verifyChain', () => {
  test('an untouched chain of every event type verifies', async () => {
    const pki = await memoryPki();
    const events = await makeChain(pki.signer);
    const result = await verifyChain(
      {
        prescriptionId: JSON.parse(events[0]?.body ?? '{}').reference,
        events,
        headHash: events[9]?.hash ?? '',
      },
      new EventVerifier(pki.trustStore, new VerificationMemory()),
    );
    assert.equal(result.ok, true);
    assert.equal(result.failedCheck, undefined);
    assert.deepEqual(
      result.bodies.map((body) => body.type),
      [
        'create',
        'lock',
        'partial_dispense',
        'cancel',
        'partial_dispense',
        'unlock',
        'full_dispense',
        'lock',
        'unlock',
        'revoke',
      ],
    );
  });

  test('the outcome is a function of the chain, the head, the prescription and the trust store', async () => {
    const pki = await memoryPki();
    const made = await makeChain(pki.signer, { length: 4 });
    const prescriptionId = JSON.parse(made[0]?.body ?? '{}').reference as string;
    const headHash = made[3]?.hash ?? '';
    const verifier = new EventVerifier(pki.trustStore, new VerificationMemory());
    const first = await verifyChain({ prescriptionId, events: made, headHash }, verifier);
    assert.equal(first.ok, true);
    assert.deepEqual(
      await verifyChain({ prescriptionId, events: made, headHash }, verifier),
      first,
    );
    // Another head or prescription is another input: verified, and it fails.
    const otherHead = await verifyChain(
      { prescriptionId, events: made, headHash: made[2]?.hash ?? '' },
      verifier,
    );
    assert.deepEqual([otherHead.ok, otherHead.failedCheck], [false, 'head']);
    const otherId = await verifyChain({ prescriptionId: 'p', events: made, headHash }, verifier);
    assert.deepEqual([otherId.ok, otherId.failedCheck], [false, 'reference']);
    // Another verifier (another trust store) does not share what this one remembered.
    const elsewhere = new EventVerifier((await memoryPki()).trustStore, new VerificationMemory());
    const untrusted = await verifyChain({ prescriptionId, events: made, headHash }, elsewhere);
    assert.deepEqual([untrusted.ok, untrusted.failedCheck], [false, 'chain']);
  });

  test('an empty chain fails the link check at index 0', async () => {
    const pki = await memoryPki();
    const result = await verifyChain(
      { prescriptionId: 'p', events: [], headHash: 'a'.repeat(64) },
      new EventVerifier(pki.trustStore, new VerificationMemory()),
    );
    assert.deepEqual(
      [result.ok, result.firstBadIndex, result.failedCheck, result.reason],
      [false, 0, 'link', 'empty_chain'],
    );
  });

  test('a head that is not the last hash fails the head check at the last index', async () => {
    const pki = await memoryPki();
    const events = await makeChain(pki.signer, { length: 4 });
    const reference = JSON.parse(events[0]?.body ?? '{}').reference as string;
    const result = await verifyChain(
      { prescriptionId: reference, events, headHash: events[2]?.hash ?? '' },
      new EventVerifier(pki.trustStore, new VerificationMemory()),
    );
    assert.deepEqual([result.ok, result.firstBadIndex, result.failedCheck], [false, 3, 'head']);
  });
});

describe('leaves rotate', () => {
  test('a chain signed by three successive leaves verifies, and fails without the root', async () => {
    const pki = await memoryPki({ leafLifetimeMs: HOUR });
    const start = new Date(Date.now() - 5 * HOUR);
    const events = await makeChain(pki.signer, { length: 3, start, stepMinutes: 90 });
    const leaves = new Set(
      events.map(
        (e) =>
          JSON.parse(Buffer.from(e.signature.split('.')[0] ?? '', 'base64url').toString()).x5c[0],
      ),
    );
    assert.equal(leaves.size, 3);
    // Each rotation retired the leaf before it, whose window had passed: only the last is held.
    assert.equal(pki.signer.leafCount, 1);
    const input = {
      prescriptionId: JSON.parse(events[0]?.body ?? '{}').reference as string,
      events,
      headHash: events[2]?.hash ?? '',
    };
    assert.equal(
      (await verifyChain(input, new EventVerifier(pki.trustStore, new VerificationMemory()))).ok,
      true,
    );
    const withoutRoot = pki.trustStore.without(pki.root.der);
    const result = await verifyChain(
      input,
      new EventVerifier(withoutRoot, new VerificationMemory()),
    );
    assert.deepEqual(
      [result.ok, result.firstBadIndex, result.failedCheck, result.reason],
      [false, 0, 'chain', 'untrusted_root'],
    );
  });

  test('a reopened signer finds the stored leaves and keeps using the current one', async () => {
    const storage = new MemoryPkiStorage();
    const pki = await memoryPki();
    const first = await LeafSigner.open({ storage, root: pki.root, leafLifetimeMs: HOUR });
    const now = new Date();
    const key = await first.keyAt(now);
    await first.keyAt(new Date(now.getTime() + 2 * HOUR));
    const reopened = await LeafSigner.open({ storage, root: pki.root, leafLifetimeMs: HOUR });
    assert.equal(reopened.leafCount, 2);
    assert.deepEqual((await reopened.keyAt(now)).x5c, key.x5c);
    assert.equal(reopened.leafCount, 2);
  });
});

describe('a chain signed once verifies forever (stored vector)', () => {
  const vectors = loadVectors<
    { prescriptionId: string; trustedRoots: string[]; events: LedgerRecord[]; headHash: string },
    { ok: boolean; leaves: number }
  >('signed-chain.json');
  for (const vector of vectors) {
    test(vector.description ?? vector.source, async () => {
      const roots = vector.input.trustedRoots.map(
        (b64) => new Uint8Array(Buffer.from(b64, 'base64')),
      );
      const trust = await TrustStore.fromCertificates(roots);
      const verifier = new EventVerifier(trust, new VerificationMemory());
      const result = await verifyChain(vector.input, verifier);
      assert.equal(result.ok, vector.expected.ok);
      // One JWS per event plus one certificate check per distinct leaf.
      assert.equal(
        verifier.publicKeyOperations,
        vector.input.events.length + vector.expected.leaves,
      );
      const untrusted = await verifyChain(
        vector.input,
        new EventVerifier(await TrustStore.fromCertificates([]), new VerificationMemory()),
      );
      assert.deepEqual([untrusted.ok, untrusted.reason], [false, 'untrusted_root']);
    });
  }
});

describe('tamperDetectionResult (SPEC.md §6)', () => {
  test('combines the link flag, the prescription hash and the chain', async () => {
    const pki = await memoryPki();
    const events = await makeChain(pki.signer, { length: 2 });
    const input = {
      prescriptionId: JSON.parse(events[0]?.body ?? '{}').reference as string,
      events,
      headHash: events[1]?.hash ?? '',
    };
    const chain = await verifyChain(
      input,
      new EventVerifier(pki.trustStore, new VerificationMemory()),
    );
    assert.deepEqual(
      tamperDetectionResult({ prescriptionUrlValid: true, chmed: 'CHMED16A1test', chain }),
      {
        prescription_url_valid: true,
        prescription_hash_check_passed: true,
        logs_check_passed: true,
      },
    );
    assert.deepEqual(
      tamperDetectionResult({ prescriptionUrlValid: false, chmed: 'CHMED16A1other', chain }),
      {
        prescription_url_valid: false,
        prescription_hash_check_passed: false,
        logs_check_passed: true,
      },
    );
    const broken = await verifyChain(
      { ...input, headHash: 'f'.repeat(64) },
      new EventVerifier(pki.trustStore, new VerificationMemory()),
    );
    assert.equal(
      tamperDetectionResult({ prescriptionUrlValid: true, chmed: 'CHMED16A1test', chain: broken })
        .logs_check_passed,
      false,
    );
  });
});

describe('columns kept beside the signed body', () => {
  test('a stored position or parent hash that disagrees with the body is a link failure', async () => {
    const pki = await memoryPki();
    const events = await makeChain(pki.signer, { length: 4 });
    const reference = JSON.parse(events[0]?.body ?? '{}').reference as string;
    const rows = events.map((e, seq) => ({
      ...e,
      seq,
      parentHash: (JSON.parse(e.body) as { parent_hash?: string }).parent_hash ?? null,
    }));
    const verifier = new EventVerifier(pki.trustStore, new VerificationMemory());
    const check = (edited: typeof rows) =>
      verifyChain({ prescriptionId: reference, events: edited, headHash: rows[3]!.hash }, verifier);

    assert.equal((await check(rows)).ok, true);
    const seqEdited = rows.map((r, i) => (i === 2 ? { ...r, seq: 7 } : r));
    assert.deepEqual(
      [(await check(seqEdited)).firstBadIndex, (await check(seqEdited)).reason],
      [2, 'seq_mismatch'],
    );
    const parentEdited = rows.map((r, i) => (i === 1 ? { ...r, parentHash: 'f'.repeat(64) } : r));
    const result = await check(parentEdited);
    assert.deepEqual([result.firstBadIndex, result.reason], [1, 'parent_column_mismatch']);
  });
});

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
    return { pki, events, reference, check, timeOf };
  }

  test('a dispense signed by a real leaf but dated before the create event fails at that event', async () => {
    const { pki, events, reference, check, timeOf } = await chainOf(1);
    const at = new Date(timeOf(0).getTime() - 18 * MINUTE);
    // A leaf of the real root, valid at that time: the signature and certificate checks pass.
    const key = await pki.signer.keyAt(at);
    const backdated = await eventSignedWith(
      events[0]!,
      { reference, timestamp: timestampAt(at) },
      key,
    );
    const result = await check([...events, backdated]);
    assert.deepEqual(
      [result.ok, result.firstBadIndex, result.failedCheck, result.reason],
      [false, 1, 'time', 'timestamp_decreases'],
    );
    // Its signature was checked, and holds: the time check runs after it.
    assert.equal(result.bodies.length, 2);
  });

  test('an event dated between the create event and its predecessor fails at that event', async () => {
    const { pki, events, reference, check, timeOf } = await chainOf(3);
    const at = new Date((timeOf(0).getTime() + timeOf(1).getTime()) / 2);
    const key = await pki.signer.keyAt(at);
    const backdated = await eventSignedWith(
      events[2]!,
      { reference, timestamp: timestampAt(at) },
      key,
    );
    const result = await check([...events, backdated]);
    assert.deepEqual([result.ok, result.firstBadIndex, result.failedCheck], [false, 3, 'time']);
  });

  test('one nanosecond back fails; the same time and later pass', async () => {
    const { pki, events, reference, check } = await chainOf(2);
    const last = parseTimestamp(JSON.parse(events[1]!.body).timestamp).epochNanos;
    const key = await pki.signer.keyAt(new Date(Number(last / 1_000_000n)));
    const dated = (nanos: bigint) =>
      eventSignedWith(events[1]!, { reference, timestamp: formatTimestamp(nanos) }, key);
    const back = await check([...events, await dated(last - 1n)]);
    assert.deepEqual([back.ok, back.firstBadIndex, back.reason], [false, 2, 'timestamp_decreases']);
    assert.equal((await check([...events, await dated(last)])).ok, true);
    assert.equal((await check([...events, await dated(last + 1n)])).ok, true);
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
