/**
 * Reading stored body text: every check for verify (`parseEventBody`), the shape alone for a
 * decision (`parseEventShape`), and the failures in their order of precedence.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { canonicalJson } from './canonical-json.js';
import { sha256Hex } from './hash.js';
import { parseEventBody, parseEventShape } from './parse-event-body.js';

function body(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: randomUUID(),
    type: 'lock',
    reference: randomUUID(),
    event_data: {},
    timestamp: '2026-11-25T01:12:13.859123456Z',
    actor: 'HIN|pharmacist',
    actor_name: 'Apotheke',
    parent_hash: sha256Hex('parent'),
    ...extra,
  };
}

describe('reading stored body text', () => {
  test('canonical text passes both reads, with its SHA-256', () => {
    const value = body();
    const text = canonicalJson(value);
    const full = parseEventBody(text);
    assert.ok(full.ok);
    assert.deepEqual(full.body, value);
    assert.deepEqual(parseEventShape(text), full);
  });

  test('the same event spelled otherwise is not canonical, yet has the shape of an event', () => {
    const text = JSON.stringify(body(), null, 1);
    const full = parseEventBody(text);
    assert.deepEqual(full, { ok: false, reason: 'not_canonical' });
    assert.ok(parseEventShape(text).ok);
  });

  test('failures keep their precedence: unparseable, then not canonical, then the shape', () => {
    assert.equal(failure(parseEventBody('{"id":')), 'unparseable');
    assert.equal(failure(parseEventShape('{"id":')), 'unparseable');
    // Not canonical and not an event: the spelling is reported first, as before.
    const spaced = '{ "unknown": true }';
    assert.equal(failure(parseEventBody(spaced)), 'not_canonical');
    assert.equal(failure(parseEventShape(spaced)), 'invalid_shape');
    assert.equal(failure(parseEventBody('{"unknown":true}')), 'invalid_shape');
  });

  test('each read is a function of the text alone: the same text, the same answer', () => {
    for (const text of [canonicalJson(body()), JSON.stringify(body(), null, 2), '{"id":']) {
      assert.deepEqual(parseEventBody(text), parseEventBody(text));
      assert.deepEqual(parseEventShape(text), parseEventShape(text));
    }
  });
});

function failure(parsed: ReturnType<typeof parseEventBody>): string | undefined {
  return parsed.ok ? undefined : parsed.reason;
}
