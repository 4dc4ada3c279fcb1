import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { CHMED_STRINGS, FOREIGN_LINKS } from '../../test/support/foreign-links.js';
import { assertRefused } from '../../test/support/refusals.js';
import { decodeChmed, readChmed } from './decode.js';
import { DocumentDecodeError } from './decode-error.js';
import { MAX_ENCODED_DATA_LENGTH } from './limits.js';

// A remark chosen so that the base64 has padding and letters that differ in the URL-safe alphabet.
const DOC = { Id: '7b5b9ad8-6b6f-4b4e-8a3e-0d1f2c3b4a59', Medicaments: [], Rmk: 'ä+/?x' };
const BYTES = gzipSync(JSON.stringify(DOC));
const CANONICAL = `CHMED16A1${BYTES.toString('base64')}`;

/** The document part of a link. */
function chmedOf(link: string): string {
  return link.slice(link.indexOf('#') + 1).split('&')[0]!;
}

describe('readChmed: CHMED16A strings whoever wrote them (SPEC.md §3)', () => {
  test('the sample document’s base64 has padding and URL-unsafe letters', () => {
    assert.match(CANONICAL, /=$/);
    assert.match(CANONICAL, /[+/]/);
  });

  test('reads every published string and the document of every published link', () => {
    assert.ok(CHMED_STRINGS.length > 0 && FOREIGN_LINKS.length > 0);
    for (const fixture of CHMED_STRINGS) {
      const doc = readChmed(fixture.text);
      if (fixture.json !== null) assert.deepEqual(doc, fixture.json, fixture.name);
      if (fixture.id !== null) assert.equal(doc.Id, fixture.id, fixture.name);
    }
    for (const fixture of FOREIGN_LINKS) {
      const doc = readChmed(chmedOf(fixture.link));
      assert.equal(doc.Id, fixture.id, fixture.name);
      assert.equal((doc.Medicaments as unknown[]).length, fixture.medicaments, fixture.name);
    }
  });

  test('keeps an empty string where a date is expected, and unknown fields, as written', () => {
    const dora = FOREIGN_LINKS.find((f) => f.link.includes('eprescription.hin.ch/#CHMED16A1H4'))!;
    const doc = readChmed(chmedOf(dora.link));
    const pos = (doc.Medicaments as { Pos: { DtTo: string }[] }[])[0]!.Pos[0]!;
    assert.equal(pos.DtTo, '');
    assert.equal(doc.PSchema, '');
  });

  test('reads the same document from every spelling of its base64', () => {
    const data = BYTES.toString('base64');
    const urlSafe = BYTES.toString('base64url');
    const wrapped = data.match(/.{1,76}/g)!;
    for (const text of [
      CANONICAL,
      `CHMED16A1${data.replace(/=+$/, '')}`,
      `CHMED16A1${urlSafe}`,
      `CHMED16A1${wrapped.join('\n')}\n`,
      `CHMED16A1${wrapped.join('\r\nCHMED16A1')}`,
      `  chmed16a1${data}\n`,
    ]) {
      assert.deepEqual(readChmed(text), DOC, JSON.stringify(text.slice(0, 40)));
    }
  });

  test('create stays strict: decodeChmed refuses the lenient spellings', () => {
    const data = BYTES.toString('base64');
    assert.deepEqual(decodeChmed(CANONICAL), DOC);
    for (const text of [
      `CHMED16A1${data.replace(/=+$/, '')}`,
      `CHMED16A1${BYTES.toString('base64url')}`,
      `CHMED16A1${data.slice(0, 20)}\n${data.slice(20)}`,
    ]) {
      assertRefused(DocumentDecodeError, () => decodeChmed(text), 'bad_base64');
    }
  });

  test('refuses what no spelling makes readable, with the strict reader’s reasons', () => {
    assertRefused(DocumentDecodeError, () => readChmed('CHMED16B1AAAA'), 'bad_prefix');
    assertRefused(DocumentDecodeError, () => readChmed('CHMED16A1AA!A'), 'bad_base64');
    assertRefused(DocumentDecodeError, () => readChmed('CHMED16A1'), 'bad_base64');
    assertRefused(DocumentDecodeError, () => readChmed('CHMED16A1AAAA'), 'bad_gzip');
    assertRefused(DocumentDecodeError, () => readChmed('CHMED16A0[1]'), 'not_object');
  });

  test('refuses data longer than any document erx reads before decoding it', () => {
    const long = `CHMED16A1${'A'.repeat(MAX_ENCODED_DATA_LENGTH + 4)}`;
    assertRefused(DocumentDecodeError, () => readChmed(long), 'too_large');
    const wrappedLong = `CHMED16A1${'AAAA\n'.repeat(MAX_ENCODED_DATA_LENGTH)}`;
    assertRefused(DocumentDecodeError, () => readChmed(wrappedLong), 'too_large');
  });
});
