import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import fc from 'fast-check';
import { prescriptionArbitrary } from '../../test/support/chmed16a-arbitrary.js';
import { decodeChmed } from './decode.js';
import { DocumentDecodeError } from './decode-error.js';
import type { DocumentDecodeReason } from './decode-error.js';
import { encodeChmed } from './encode.js';
import { MAX_DOCUMENT_BYTES } from './limits.js';
import { validatePrescription } from './validate.js';
import { assertRefused as assertRefusal } from '../../test/support/refusals.js';

const assertRefused = (fn: () => unknown, reason: DocumentDecodeReason): void =>
  assertRefusal(DocumentDecodeError, fn, reason);

const example: object = JSON.parse(
  readFileSync(new URL('../../examples/prescription.json', import.meta.url), 'utf8'),
) as object;

describe('encodeChmed (SPEC.md §3)', () => {
  test('writes CHMED16A1 + padded standard base64 of the gzip of the UTF-8 JSON', () => {
    const encoded = encodeChmed(example);
    assert.ok(encoded.startsWith('CHMED16A1'));
    const data = encoded.slice('CHMED16A1'.length);
    assert.match(data, /^[A-Za-z0-9+/]*={0,2}$/);
    assert.equal(data.length % 4, 0);
    const json = gunzipSync(Buffer.from(data, 'base64')).toString('utf8');
    assert.deepEqual(JSON.parse(json), example);
  });

  test('keeps non-ASCII text as UTF-8', () => {
    const encoded = encodeChmed({ Rmk: 'Zoë 😀' });
    const bytes = gunzipSync(Buffer.from(encoded.slice(9), 'base64'));
    assert.deepEqual([...bytes.subarray(8, 11)], [0x5a, 0x6f, 0xc3]);
  });

  test('the example prescription round-trips and stays valid', () => {
    const decoded = decodeChmed(encodeChmed(example));
    assert.deepEqual(decoded, example);
    assert.deepEqual(validatePrescription(decoded), []);
  });

  test('refuses a document it could not read back: too large, too deep, forbidden key', () => {
    assertRefused(() => encodeChmed({ Rmk: 'x'.repeat(MAX_DOCUMENT_BYTES) }), 'too_large');
    let deep: unknown[] = [];
    for (let i = 0; i < 40; i++) deep = [deep];
    assertRefused(() => encodeChmed({ deep }), 'too_deep');
    assertRefused(
      () => encodeChmed(JSON.parse('{"a":{"__proto__":1}}') as object),
      'forbidden_key',
    );
  });

  test('refuses a cyclic value as too deep instead of recursing', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    assertRefused(() => encodeChmed(cyclic), 'too_deep');
  });
});

describe('round trip (property, fast-check)', () => {
  test('decodeChmed(encodeChmed(d)) deep-equals d and validates, for any valid document', () => {
    fc.assert(
      fc.property(prescriptionArbitrary(), (doc) => {
        const encoded = encodeChmed(doc);
        assert.ok(encoded.startsWith('CHMED16A1'));
        const decoded = decodeChmed(encoded);
        assert.deepEqual(decoded, doc);
        assert.deepEqual(validatePrescription(decoded), []);
      }),
      { numRuns: 1_000 },
    );
  });

  test('CHMED16A0 and lowercase prefixes decode to the same document', () => {
    fc.assert(
      fc.property(prescriptionArbitrary(), (doc) => {
        const json = JSON.stringify(doc);
        const encoded = encodeChmed(doc);
        assert.deepEqual(decodeChmed(`CHMED16A0${json}`), doc);
        assert.deepEqual(decodeChmed(`chmed16a0${json}`), doc);
        assert.deepEqual(decodeChmed(`chmed16a1${encoded.slice(9)}`), doc);
      }),
      { numRuns: 1_000 },
    );
  });
});
