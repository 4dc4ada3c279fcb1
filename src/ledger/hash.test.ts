import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalJson } from './canonical-json.js';
import type { EventBody } from './event.js';
import { isSha256Hex, sha256Hex } from './hash.js';
import { parseEventBody } from './parse-event-body.js';
import { checkPrescriptionHash, prescriptionHash } from './prescription-hash.js';
import { validateEventBody } from './validate-event-body.js';
import { loadVectors } from '../../test/support/ledger/vectors.js';

describe('event bodies: canonical JSON and hash, byte for byte', () => {
  const vectors = loadVectors<EventBody, { canonical: string; hash: string }>('event-bodies.json');
  for (const vector of vectors) {
    test(vector.description ?? vector.source, () => {
      assert.equal(validateEventBody(vector.input).ok, true);
      const canonical = canonicalJson(vector.input);
      assert.equal(
        Buffer.from(canonical, 'utf8').toString('hex'),
        Buffer.from(vector.expected.canonical, 'utf8').toString('hex'),
      );
      assert.equal(sha256Hex(canonical), vector.expected.hash);
      // The stored text reads back as the same body.
      const parsed = parseEventBody(vector.expected.canonical);
      assert.equal(parsed.ok, true);
      assert.deepEqual(parsed.ok ? parsed.body : undefined, vector.input);
    });
  }

  test('each vector links to the one before it, as a chain does', () => {
    for (const [index, vector] of vectors.entries()) {
      if (index === 0) continue;
      assert.equal(vector.input.parent_hash, vectors[index - 1]?.expected.hash);
    }
  });
});

describe('prescription hash (SPEC.md §3)', () => {
  const vectors = loadVectors<{ chmed: string }, { prescription_hash: string }>(
    'prescription-hash.json',
  );
  for (const vector of vectors) {
    test(vector.source, () => {
      assert.equal(prescriptionHash(vector.input.chmed), vector.expected.prescription_hash);
      assert.ok(isSha256Hex(vector.expected.prescription_hash));
    });
  }

  test('checkPrescriptionHash compares the create event with the link string', () => {
    const vector = vectors[0];
    assert.ok(vector !== undefined);
    const create = loadVectors<EventBody, unknown>('event-bodies.json')[0]?.input;
    assert.equal(create?.type, 'create');
    assert.equal(checkPrescriptionHash(create, vector.input.chmed), true);
    assert.equal(checkPrescriptionHash(create, `${vector.input.chmed}A`), false);
    assert.equal(checkPrescriptionHash(undefined, vector.input.chmed), false);
  });
});

describe('stored body text must be its own canonical form', () => {
  const text = loadVectors<EventBody, { canonical: string }>('event-bodies.json')[0]?.expected
    .canonical as string;

  test('whitespace, reordering and escaped spellings are refused', () => {
    const spaced = text.replace('{"actor"', '{ "actor"');
    const reordered = JSON.stringify(JSON.parse(text), Object.keys(JSON.parse(text)).reverse());
    const escaped = text.replace('ü', '\\u00fc');
    for (const variant of [spaced, reordered, escaped]) {
      const parsed = parseEventBody(variant);
      assert.equal(parsed.ok ? 'ok' : parsed.reason, 'not_canonical');
    }
  });

  test('a duplicate key is refused (JSON.parse would keep the last one)', () => {
    const duplicated = text.replace(
      '{"actor":"HIN|drmueller"',
      '{"actor":"x","actor":"HIN|drmueller"',
    );
    const parsed = parseEventBody(duplicated);
    assert.equal(parsed.ok ? 'ok' : parsed.reason, 'not_canonical');
  });

  test('__proto__ keys and malformed text are refused', () => {
    for (const variant of ['{"__proto__":{}}', text.slice(0, -1), '']) {
      const parsed = parseEventBody(variant);
      assert.equal(parsed.ok ? 'ok' : parsed.reason, 'unparseable');
    }
  });
});
