import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, test } from 'node:test';
import type { Pki } from '../pki/index.js';
import { appendEvent, newEventId } from './append-event.js';
import { Clock } from './clock.js';
import type { NewEvent } from './append-event.js';
import { canonicalJson } from './canonical-json.js';
import type { SignedEvent } from './event.js';
import { sha256Hex } from './hash.js';
import { checkEventHash } from './check-event-hash.js';
import { memoryPki, timestampAt } from '../../test/support/ledger/chain.js';
import { parseTimestamp } from './timestamp.js';

const clock = new Clock();

let pki: Pki;
let create: SignedEvent;
const reference = randomUUID();
const doctor = { actor: 'HIN|dr', actor_name: 'Dr. A' };

before(async () => {
  pki = await memoryPki();
  create = await appendEvent(
    undefined,
    { type: 'create', reference, ...doctor, prescription_hash: sha256Hex('CHMED16A1x') },
    pki.signer,
    clock,
  );
});

describe('appendEvent', () => {
  test('the new body reads back as a stored one: parsed, with its hash', () => {
    const record = { ...create, prescriptionId: reference };
    const check = checkEventHash(record, reference);
    assert.ok(check.ok);
    assert.deepEqual(check.body, JSON.parse(create.body));
    assert.equal(sha256Hex(create.body), create.hash);
    // One changed byte is read and refused.
    const edited = checkEventHash(
      { ...record, body: create.body.replace('"create"', '"revoke"') },
      reference,
    );
    assert.equal(edited.ok, false);
  });

  test('the create event has seq 0, no parent, a UUID version 7 id, a fresh timestamp', () => {
    const body = JSON.parse(create.body) as Record<string, unknown>;
    assert.equal(create.seq, 0);
    assert.equal(create.parentHash, null);
    assert.equal(body.parent_hash, undefined);
    assert.match(
      create.id,
      /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    );
    assert.equal(body.id, create.id);
    const age = Date.now() - parseTimestamp(body.timestamp as string).date.getTime();
    assert.ok(age >= 0 && age < 60_000);
  });

  test('event ids sort in the order they were made and carry the time in milliseconds', () => {
    const before = Date.now();
    const ids = Array.from({ length: 1_000 }, newEventId);
    const after = Date.now();
    assert.deepEqual([...ids].sort(), ids);
    assert.equal(new Set(ids).size, ids.length);
    for (const id of [ids[0]!, ids[ids.length - 1]!]) {
      const millis = parseInt(id.replaceAll('-', '').slice(0, 12), 16);
      assert.ok(millis >= before && millis <= after, `${id} was made at ${millis}`);
    }
    // Ids of the same millisecond differ after the time (a counter from a random start, then
    // random bits).
    const tails = new Set(ids.map((id) => id.slice(19)));
    assert.equal(tails.size, ids.length);
  });

  test('the stored body is its canonical JSON and the hash its SHA-256', () => {
    assert.equal(canonicalJson(JSON.parse(create.body)), create.body);
    assert.equal(create.hash, sha256Hex(create.body));
  });

  test('a following event links to the head and omits absent optional fields', async () => {
    const lock = await appendEvent(
      create,
      { type: 'lock', reference, ...doctor, event_data: { reason: undefined } },
      pki.signer,
      clock,
    );
    const body = JSON.parse(lock.body) as Record<string, unknown>;
    assert.equal(lock.seq, 1);
    assert.equal(lock.parentHash, create.hash);
    assert.equal(body.parent_hash, create.hash);
    assert.deepEqual(body.event_data, {});
    assert.equal('dispenses' in body, false);
    assert.equal('prescription_hash' in body, false);
  });

  test('a chain starts with create and only there', async () => {
    const lock: NewEvent = { type: 'lock', reference, ...doctor };
    await assert.rejects(appendEvent(undefined, lock, pki.signer, clock), {
      code: 'internal_error',
    });
    const again: NewEvent = {
      type: 'create',
      reference,
      ...doctor,
      prescription_hash: sha256Hex('x'),
    };
    await assert.rejects(appendEvent(create, again, pki.signer, clock), { code: 'internal_error' });
  });

  test('events that break the body rules are refused', async () => {
    const bad: NewEvent[] = [
      { type: 'partial_dispense', reference, ...doctor, dispenses: [{ id: 'a', amount: 0 }] },
      { type: 'partial_dispense', reference, ...doctor, dispenses: [{ id: 'a', amount: 1.5 }] },
      { type: 'partial_dispense', reference, ...doctor, dispenses: [] },
      {
        type: 'partial_dispense',
        reference,
        ...doctor,
        dispenses: [{ id: 'a', amount: 1, substitute: 's' }],
      },
      {
        type: 'partial_dispense',
        reference,
        ...doctor,
        dispenses: [{ id: 'a', amount: 1, substitute: 's', substitute_id_type: 4 }],
      },
      { type: 'lock', reference, ...doctor, dispenses: [{ id: 'a', amount: 1 }] },
      { type: 'cancel', reference, ...doctor },
      { type: 'cancel', reference, ...doctor, event_data: { EventId: 'x', reason: 'y' } },
      { type: 'revoke', reference, ...doctor, event_data: { reason: 'r' } },
      { type: 'lock', reference, ...doctor, prescription_hash: sha256Hex('x') },
      { type: 'lock', reference: '', ...doctor },
      { type: 'lock', reference, ...doctor, id: 'not-a-uuid' },
      { type: 'lock', reference, ...doctor, timestamp: '2024-08-16T15:12:12+02:00' },
      { type: 'lock', reference, ...doctor, event_data: { reason: '\ud800' } },
    ];
    for (const event of bad) {
      await assert.rejects(
        appendEvent(create, event, pki.signer, clock),
        { code: 'bad_request' },
        JSON.stringify(event),
      );
    }
  });

  test('the signing leaf is one valid at the event time', async () => {
    const later = new Date(Date.now() + 3 * 24 * 60 * 60 * 1000);
    const event = await appendEvent(
      create,
      { type: 'lock', reference, ...doctor, timestamp: timestampAt(later) },
      pki.signer,
      clock,
    );
    const key = await pki.signer.keyAt(later);
    const header = JSON.parse(
      Buffer.from(event.signature.split('.')[0] ?? '', 'base64url').toString(),
    );
    assert.deepEqual(header.x5c, [...key.x5c]);
    assert.ok(key.notBefore <= later && later <= key.notAfter);
  });
});

describe('time never runs backwards along a chain', () => {
  const HOUR = 60 * 60 * 1000;

  test('while the clock is behind the head, the next event is dated at the head', async () => {
    // The head was appended by an instance whose clock runs an hour ahead of this one.
    const ahead = timestampAt(new Date(Date.now() + HOUR));
    const head = await appendEvent(
      create,
      { type: 'lock', reference, ...doctor, timestamp: ahead },
      pki.signer,
      clock,
    );
    const next = await appendEvent(
      head,
      { type: 'unlock', reference, ...doctor },
      pki.signer,
      clock,
    );
    assert.equal(JSON.parse(next.body).timestamp, ahead);
  });

  test('once the clock has passed the head, the next event is dated now', async () => {
    const start = await appendEvent(
      undefined,
      {
        type: 'create',
        reference,
        ...doctor,
        prescription_hash: sha256Hex('CHMED16A1x'),
        timestamp: timestampAt(new Date(Date.now() - 2 * HOUR)),
      },
      pki.signer,
      clock,
    );
    const earlier = timestampAt(new Date(Date.now() - HOUR));
    const head = await appendEvent(
      start,
      { type: 'lock', reference, ...doctor, timestamp: earlier },
      pki.signer,
      clock,
    );
    const before = Date.now();
    const next = await appendEvent(
      head,
      { type: 'unlock', reference, ...doctor },
      pki.signer,
      clock,
    );
    const at = parseTimestamp(JSON.parse(next.body).timestamp as string).date.getTime();
    assert.ok(at >= before - 1 && at <= Date.now() + 1, `dated ${at}, now ${before}`);
  });

  test('an event dated before its predecessor is refused; the same time is allowed', async () => {
    const at = new Date(Date.now() + HOUR);
    const head = await appendEvent(
      create,
      { type: 'lock', reference, ...doctor, timestamp: timestampAt(at) },
      pki.signer,
      clock,
    );
    const earlier = timestampAt(new Date(at.getTime() - 1));
    await assert.rejects(
      appendEvent(
        head,
        { type: 'unlock', reference, ...doctor, timestamp: earlier },
        pki.signer,
        clock,
      ),
      { code: 'internal_error' },
    );
    const same = await appendEvent(
      head,
      { type: 'unlock', reference, ...doctor, timestamp: timestampAt(at) },
      pki.signer,
      clock,
    );
    assert.equal(JSON.parse(same.body).timestamp, timestampAt(at));
  });
});
