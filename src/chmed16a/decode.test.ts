import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gunzipSync, gzipSync } from 'node:zlib';
import { decodeChmed } from './decode.js';
import { DocumentDecodeError } from './decode-error.js';
import type { DocumentDecodeReason } from './decode-error.js';
import { MAX_DOCUMENT_BYTES, MAX_ENCODED_DATA_LENGTH } from './limits.js';
import { validatePrescription } from './validate.js';
import { bestMs } from '../../test/support/timing.js';
import { assertRefused as assertRefusal } from '../../test/support/refusals.js';
import { vectorFolder } from '../../test/support/vectors.js';

interface DecodeVector {
  name: string;
  source: string;
  input: string;
  expected: { document: unknown; violationPaths?: string[] } | { reason: DocumentDecodeReason };
}

const assertRefused = (fn: () => unknown, reason: DocumentDecodeReason): void =>
  assertRefusal(DocumentDecodeError, fn, reason);

const gzipLink = (json: string | Buffer): string =>
  'CHMED16A1' +
  gzipSync(typeof json === 'string' ? Buffer.from(json, 'utf8') : json).toString('base64');

const vectors = vectorFolder<DecodeVector>('chmed16a/decode');

describe('decodeChmed: vectors', () => {
  test('the vector folder is not empty', () => {
    assert.ok(vectors.length > 0, 'no vectors in test/vectors/chmed16a/decode');
    assert.ok(vectors.some(({ vector }) => 'document' in vector.expected));
    assert.ok(vectors.some(({ vector }) => 'reason' in vector.expected));
  });

  for (const { file, vector } of vectors) {
    test(`${file}: ${vector.name}`, () => {
      assert.ok(vector.source.length > 0, 'every vector names its source');
      const expected = vector.expected;
      if ('reason' in expected) {
        assertRefused(() => decodeChmed(vector.input), expected.reason);
        return;
      }
      const doc = decodeChmed(vector.input);
      assert.deepEqual(doc, expected.document);
      if (expected.violationPaths !== undefined) {
        const paths = [...new Set(validatePrescription(doc).map((v) => v.path))].sort();
        assert.deepEqual(paths, [...expected.violationPaths].sort());
      }
    });
  }
});

describe('decodeChmed: size limit (SPEC.md §9)', () => {
  // A JSON string value padded so the whole text is exactly `size` bytes.
  const jsonOfSize = (size: number): string => {
    const head = '{"Rmk":"';
    const tail = '"}';
    return head + 'x'.repeat(size - head.length - tail.length) + tail;
  };

  test('a document of exactly 256 KiB decodes (gzip and plain)', () => {
    const json = jsonOfSize(MAX_DOCUMENT_BYTES);
    assert.equal(Buffer.byteLength(json), MAX_DOCUMENT_BYTES);
    assert.deepEqual(decodeChmed(gzipLink(json)), JSON.parse(json));
    assert.deepEqual(decodeChmed('CHMED16A0' + json), JSON.parse(json));
  });

  test('a document of 256 KiB + 1 byte is refused (gzip and plain)', () => {
    const json = jsonOfSize(MAX_DOCUMENT_BYTES + 1);
    assertRefused(() => decodeChmed(gzipLink(json)), 'too_large');
    assertRefused(() => decodeChmed('CHMED16A0' + json), 'too_large');
  });

  test('plain JSON counts UTF-8 bytes, not characters', () => {
    const json = jsonOfSize(MAX_DOCUMENT_BYTES).replace('x', 'é');
    assert.equal(json.length, MAX_DOCUMENT_BYTES);
    assert.equal(Buffer.byteLength(json), MAX_DOCUMENT_BYTES + 1);
    assertRefused(() => decodeChmed('CHMED16A0' + json), 'too_large');
  });

  test('base64 data longer than any 256 KiB document could need is refused unread', () => {
    assertRefused(
      () => decodeChmed('CHMED16A1' + 'A'.repeat(MAX_ENCODED_DATA_LENGTH + 4)),
      'too_large',
    );
  });

  test('incompressible data just under the length cap still reaches the document limit', () => {
    const random = Buffer.alloc(MAX_DOCUMENT_BYTES + 1, 0);
    for (let i = 0; i < random.length; i++) random[i] = (i * 2654435761) >>> 24;
    const data = gzipSync(random, { level: 0 }).toString('base64');
    assert.ok(data.length <= MAX_ENCODED_DATA_LENGTH);
    assertRefused(() => decodeChmed('CHMED16A1' + data), 'too_large');
  });
});

describe('decodeChmed: hostile input', () => {
  test('a gzip of 50 MiB of zeros is refused in a fifth of the time inflating it takes, without growing the heap by 20 MiB', () => {
    const zeros = Buffer.alloc(50 * 1024 * 1024);
    const gzip = gzipSync(zeros, { level: 9 });
    const bomb = 'CHMED16A1' + gzip.toString('base64');
    // The baseline, in the same run on the same input: inflating all of it.
    const inflateMs = bestMs(() => gunzipSync(gzip), 3);
    const gc = (globalThis as { gc?: () => void }).gc;
    gc?.();
    const memory = (): number => {
      const m = process.memoryUsage();
      return m.heapUsed + m.external + m.arrayBuffers;
    };
    const before = memory();
    const started = performance.now();
    assertRefused(() => decodeChmed(bomb), 'too_large');
    const elapsed = performance.now() - started;
    // No collection in between: whatever decoding allocated is still counted.
    const grown = memory() - before;
    assert.ok(grown < 20 * 1024 * 1024, `grew by ${grown} bytes`);
    // Best of three, so that one pause of a busy machine does not count as the decoder's cost.
    const refusedMs = Math.min(
      elapsed,
      bestMs(() => assertRefused(() => decodeChmed(bomb), 'too_large'), 2),
    );
    assert.ok(refusedMs < inflateMs / 5, `took ${refusedMs} ms, inflating ${inflateMs} ms`);
    assert.equal(zeros.length, 50 * 1024 * 1024); // keeps the input alive while measuring
  });

  for (const [name, open, close] of [
    ['arrays', '[', ']'],
    ['objects', '{"a":', '}'],
  ] as const) {
    const deep = open.repeat(10_000) + '1' + close.repeat(10_000);

    test(`10,000 nested ${name} as CHMED16A0 are refused as too_deep`, () => {
      assertRefused(() => decodeChmed('CHMED16A0' + deep), 'too_deep');
    });

    test(`10,000 nested ${name} as CHMED16A1 are refused as too_deep`, () => {
      assertRefused(() => decodeChmed(gzipLink(deep)), 'too_deep');
    });
  }

  test('a 76-byte style gzip of 9,000 nested arrays is refused as too_deep', () => {
    const link = gzipLink('['.repeat(9_000) + ']'.repeat(9_000));
    assert.ok(link.length < 200);
    assertRefused(() => decodeChmed(link), 'too_deep');
  });

  test('__proto__ and constructor keys are refused and Object.prototype stays clean', () => {
    const payloads = [
      '{"__proto__":{"polluted":true}}',
      '{"Patient":{"__proto__":{"polluted":true}}}',
      '{"Medicaments":[{"constructor":{"prototype":{"polluted":true}}}]}',
      '{"\\u005f_proto__":{"polluted":true}}',
    ];
    for (const json of payloads) {
      assertRefused(() => decodeChmed('CHMED16A0' + json), 'forbidden_key');
      assertRefused(() => decodeChmed(gzipLink(json)), 'forbidden_key');
    }
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    assert.equal(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted'), false);
  });

  test('a decoded document has the ordinary prototype', () => {
    const doc = decodeChmed('CHMED16A0{"Id":"x"}');
    assert.equal(Object.getPrototypeOf(doc), Object.prototype);
  });
});
