import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import {
  IG_EXAMPLES,
  IG_PARTS,
  IG_WHOLE,
  chmed23String,
  splitChmed23,
} from '../../test/support/chmed23a-fixtures.js';
import { assertRefused } from '../../test/support/refusals.js';
import { DocumentDecodeError, MAX_ENCODED_DATA_LENGTH } from '../chmed16a/index.js';
import { decodeChmed23, readChmed23 } from './decode.js';
import { PartsError } from './parts-error.js';
import type { PartsErrorReason } from './parts-error.js';
import { MAX_PARTS } from './transmission.js';

/** Every ordering of `items`. */
function permutations<T>(items: readonly T[]): T[][] {
  if (items.length <= 1) return [[...items]];
  return items.flatMap((item, i) =>
    permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]),
  );
}

/** Asserts that reading `parts` is refused with a {@link PartsError} of `reason`; its message. */
function refusedParts(parts: readonly string[], reason: PartsErrorReason): PartsError {
  try {
    readChmed23(parts);
  } catch (error) {
    assert.ok(error instanceof PartsError, `not a PartsError: ${String(error)}`);
    assert.equal(error.code, 'bad_request');
    assert.equal(error.reason, reason);
    return error;
  }
  assert.fail(`expected ${reason}`);
}

describe('CHMED23A: the IG eMediplan examples (ChTransmissionFormat year 23)', () => {
  test('the example string decodes to a JSON object', () => {
    const { doc, whole, parts } = readChmed23([IG_WHOLE]);
    assert.equal(parts, 1);
    assert.equal(whole, IG_WHOLE);
    assert.equal(doc.Dt, '2022-01-11T09:38:45.4689497+01:00');
    assert.equal((doc.Meds as unknown[]).length, 1);
    assert.deepEqual(decodeChmed23(IG_WHOLE).doc, doc);
  });

  test('its 4-part split decodes to the same document, the parts in each of the 24 orders', () => {
    const expected = readChmed23([IG_WHOLE]).doc;
    const orders = permutations(IG_PARTS);
    assert.equal(orders.length, 24);
    for (const order of orders) {
      const read = readChmed23(order);
      assert.deepEqual(read.doc, expected);
      assert.equal(read.whole, IG_WHOLE);
      assert.equal(read.parts, 4);
    }
  });

  test('every example document, serialised as the IG does, reads back whole and in parts', () => {
    assert.equal(IG_EXAMPLES.length, 4);
    for (const example of IG_EXAMPLES) {
      const whole = chmed23String(example.json);
      assert.deepEqual(decodeChmed23(whole).doc, example.json, example.name);
      for (const count of [2, 3, 5]) {
        const parts = splitChmed23(whole, count).reverse();
        assert.deepEqual(readChmed23(parts).doc, example.json, `${example.name} in ${count}`);
      }
    }
  });

  test('the header is read in any case, and blanks around a scanned part are ignored', () => {
    const parts = IG_PARTS.map((p, i) => (i === 0 ? `  chmed23a${p.slice(8)}\n` : p));
    assert.equal(readChmed23(parts).parts, 4);
  });
});

describe('CHMED23A parts that do not make one document are named', () => {
  test('a missing part, and several', () => {
    const one = refusedParts([IG_PARTS[0]!, IG_PARTS[2]!, IG_PARTS[3]!], 'missing_parts');
    assert.deepEqual(one.params, { missing: [2], total: 4 });
    assert.equal(one.message, 'Part 2 of 4 is missing.');
    const two = refusedParts([IG_PARTS[3]!, IG_PARTS[0]!], 'missing_parts');
    assert.equal(two.message, 'Parts 2 and 3 of 4 are missing.');
  });

  test('a part given twice, even with the others all there', () => {
    const error = refusedParts([...IG_PARTS, IG_PARTS[1]!], 'duplicate_part');
    assert.deepEqual(error.params, { index: 2, total: 4 });
    assert.equal(error.message, 'Part 2 of 4 was given more than once.');
  });

  test('parts of differently split documents, a part beyond its total, a whole among parts', () => {
    const other = splitChmed23(IG_WHOLE, 3);
    const mixed = refusedParts([...IG_PARTS.slice(0, 2), other[2]!], 'inconsistent_parts');
    assert.deepEqual(mixed.params, { totals: [3, 4] });
    refusedParts(['CHMED23A.5/4.AAAA'], 'part_out_of_range');
    refusedParts([IG_WHOLE, IG_PARTS[0]!], 'mixed_parts');
    refusedParts([IG_PARTS[0]!, 'CHMED23B.2/4.AAAA'], 'inconsistent_parts');
  });

  test(`more than ${MAX_PARTS} parts are refused before any is assembled`, () => {
    refusedParts([`CHMED23A.1/${MAX_PARTS + 1}.AAAA`], 'too_many_parts');
    const many = Array.from({ length: MAX_PARTS + 1 }, (_, i) => `CHMED23A.${i + 1}/200.A`);
    refusedParts(many, 'too_many_parts');
  });

  test('create takes one canonical string in one piece only', () => {
    assert.throws(() => decodeChmed23(IG_PARTS[0]!), PartsError);
    const unpadded = IG_WHOLE.replace(/=+$/, '');
    assertRefused(DocumentDecodeError, () => decodeChmed23(unpadded), 'bad_base64');
    assert.equal(readChmed23([unpadded]).whole, unpadded);
    assertRefused(DocumentDecodeError, () => decodeChmed23('CHMED16A1H4sI'), 'bad_prefix');
    assertRefused(DocumentDecodeError, () => decodeChmed23('CHMED23A'), 'bad_prefix');
  });
});

describe('CHMED23A: the limits of SPEC.md §9 hold on the assembled data', () => {
  test('assembled data longer than any document erx reads is refused before decoding', () => {
    const half = 'A'.repeat(MAX_ENCODED_DATA_LENGTH);
    const parts = [`CHMED23A.1/3.${half}`, `CHMED23A.2/3.${half}`, `CHMED23A.3/3.AAAA`];
    assertRefused(DocumentDecodeError, () => readChmed23(parts), 'too_large');
    const long = `CHMED23A.${'A'.repeat(MAX_ENCODED_DATA_LENGTH + 4)}`;
    assertRefused(DocumentDecodeError, () => decodeChmed23(long), 'too_large');
  });

  test('a gzip bomb split into parts is refused as too large, in any order', () => {
    const bomb = chmed23String({ x: 'a'.repeat(4 * 1024 * 1024) });
    assert.ok(bomb.length < 16 * 1024);
    for (const order of permutations(splitChmed23(bomb, 3))) {
      assertRefused(DocumentDecodeError, () => readChmed23(order), 'too_large');
    }
  });

  test('a nesting bomb is refused as too deep, a second gzip member as trailing data', () => {
    const deep = chmed23String(JSON.parse(`${'{"a":'.repeat(40)}1${'}'.repeat(40)}`) as object);
    assertRefused(DocumentDecodeError, () => readChmed23(splitChmed23(deep, 2)), 'too_deep');
    const member = gzipSync('{}');
    const twice = `CHMED23A.${Buffer.concat([member, member]).toString('base64')}`;
    assertRefused(DocumentDecodeError, () => readChmed23([twice]), 'trailing_data');
  });
});
