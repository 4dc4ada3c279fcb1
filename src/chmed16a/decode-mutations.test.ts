import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { decodeChmed } from './decode.js';
import { DocumentDecodeError } from './decode-error.js';
import { encodeChmed } from './encode.js';

const example: object = JSON.parse(
  readFileSync(new URL('../../examples/prescription.json', import.meta.url), 'utf8'),
) as object;

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=';

/** One edit of a string: replace, insert or delete a character at some position. */
const edit = fc.record({
  kind: fc.constantFrom('replace', 'insert', 'delete'),
  at: fc.nat(),
  char: fc.oneof(
    fc.constantFrom(...BASE64),
    fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }),
  ),
});

type Edit = { kind: 'replace' | 'insert' | 'delete'; at: number; char: string };

function apply(text: string, edits: readonly Edit[]): string {
  let out = text;
  for (const { kind, at, char } of edits) {
    const i = at % (out.length + 1);
    if (kind === 'insert') out = out.slice(0, i) + char + out.slice(i);
    else if (kind === 'delete') out = out.slice(0, i) + out.slice(i + 1);
    else out = out.slice(0, i) + char + out.slice(i + 1);
  }
  return out;
}

/** Decodes, accepting only a JSON object or a DocumentDecodeError; anything else fails. */
function decodeOrRefuse(text: string): void {
  try {
    const doc = decodeChmed(text);
    assert.equal(typeof doc, 'object');
    assert.ok(doc !== null && !Array.isArray(doc));
  } catch (error) {
    if (!(error instanceof DocumentDecodeError)) throw error;
    assert.equal(error.code, 'bad_request');
  }
}

describe('decodeChmed: random mutations', () => {
  const gzip = encodeChmed(example);
  const plain = `CHMED16A0${JSON.stringify(example)}`;

  test('10,000 mutations of a valid CHMED16A1 string give a document or a DocumentDecodeError', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        decodeOrRefuse(apply(gzip, edits));
      }),
      { numRuns: 10_000 },
    );
  });

  test('2,000 mutations of a valid CHMED16A0 string give a document or a DocumentDecodeError', () => {
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 4 }), (edits) => {
        decodeOrRefuse(apply(plain, edits));
      }),
      { numRuns: 2_000 },
    );
  });
});
