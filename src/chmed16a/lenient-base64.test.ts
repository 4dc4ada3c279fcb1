import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { lenientBase64 } from './lenient-base64.js';

// Bytes whose base64 uses both letters that differ between the alphabets (`+/` and `-_`).
const BYTES = Buffer.from([0xfb, 0xff, 0xbf, 0x3e, 0x00, 0x01, 0x02, 0xfe]);
const CANONICAL = BYTES.toString('base64');

describe('lenientBase64: the spellings other issuers write', () => {
  test('the bytes chosen need padding and both alphabet-specific letters', () => {
    assert.equal(CANONICAL, '+/+/PgABAv4=');
  });

  test('reads standard base64 with and without padding as the canonical form', () => {
    assert.equal(lenientBase64(CANONICAL), CANONICAL);
    assert.equal(lenientBase64(CANONICAL.replace(/=+$/, '')), CANONICAL);
  });

  test('reads URL-safe base64 with and without padding', () => {
    const urlSafe = BYTES.toString('base64url');
    assert.equal(urlSafe, '-_-_PgABAv4');
    assert.equal(lenientBase64(urlSafe), CANONICAL);
    assert.equal(lenientBase64(`${urlSafe}=`), CANONICAL);
  });

  test('reads text wrapped over lines (LF, CRLF, indented), with or without the prefix again', () => {
    const [a, b] = [CANONICAL.slice(0, 6), CANONICAL.slice(6)];
    for (const wrapped of [
      `${a}\n${b}`,
      `${a}\r\n${b}\r\n`,
      `${a}\n  ${b}`,
      `${a}\nCHMED16A1${b}`,
      `${a}\r\nchmed16a1${b}\n`,
    ]) {
      assert.equal(lenientBase64(wrapped), CANONICAL, JSON.stringify(wrapped));
    }
  });

  test('takes the prefix away only at the start of a line', () => {
    assert.equal(lenientBase64(`${CANONICAL.slice(0, 4)}CHMED16A1`), undefined);
  });

  test('refuses what is no base64 in any spelling', () => {
    for (const bad of [
      '',
      '\n',
      'A',
      'AAAAA',
      'AA===',
      'AA=A',
      'AAA=A',
      'A=AA',
      'AA!A',
      'AA.A',
      'AAAA=',
      'AAA==',
      'ÄAAA',
    ]) {
      assert.equal(lenientBase64(bad), undefined, JSON.stringify(bad));
    }
  });
});
