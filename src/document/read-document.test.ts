import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CHMED_STRINGS } from '../../test/support/foreign-links.js';
import { IG_PARTS, IG_WHOLE } from '../../test/support/chmed23a-fixtures.js';
import { assertRefused } from '../../test/support/refusals.js';
import { DocumentDecodeError } from '../chmed16a/index.js';
import { PartsError } from '../chmed23a/index.js';
import { formatOf, readDocument } from './read-document.js';

describe('readDocument: either release, by its prefix', () => {
  test('tells the releases apart by prefix, in any case', () => {
    assert.equal(formatOf(IG_WHOLE), 'CHMED23A');
    assert.equal(formatOf('chmed23a.1/2.AAAA'), 'CHMED23A');
    assert.equal(formatOf(' CHMED16A1H4sI'), 'CHMED16A');
    assert.equal(formatOf('CHMED16A0{}'), 'CHMED16A');
    assert.equal(formatOf('CHMED17A1'), undefined);
  });

  test('reads a CHMED16A string and a CHMED23A document in one piece or in parts', () => {
    const sixteen = readDocument([CHMED_STRINGS[0]!.text]);
    assert.equal(sixteen.format, 'CHMED16A');
    const whole = readDocument([IG_WHOLE]);
    assert.equal(whole.format, 'CHMED23A');
    const parts = readDocument([...IG_PARTS].reverse());
    assert.deepEqual(parts, { ...whole, parts: 4 });
  });

  test('refuses neither release, nothing, and a CHMED16A string among others', () => {
    assertRefused(DocumentDecodeError, () => readDocument(['{"Id":"x"}']), 'bad_prefix');
    assertRefused(DocumentDecodeError, () => readDocument([]), 'bad_prefix');
    assert.throws(() => readDocument([CHMED_STRINGS[0]!.text, IG_PARTS[0]!]), PartsError);
  });
});
