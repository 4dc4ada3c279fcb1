import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitsQrCode } from './fits.js';

const LINK = `http://localhost:8080/rx/#CHMED16A1${'H4sIAAAAAAAAA'.repeat(60)}&i=Dr.%20A%20(HIN%7Ca)&t=1795297788&s=${'ab'.repeat(64)}`;

test('a code holds 5,596 digits at most; a longer text never fits', () => {
  assert.equal(fitsQrCode('1'.repeat(5596)), true);
  assert.equal(fitsQrCode('1'.repeat(5597)), false);
  assert.equal(fitsQrCode(LINK), true);
  assert.equal(fitsQrCode(`${LINK}${'A'.repeat(60_000)}`), false);
});

test('counts UTF-8 bytes, not characters: 2,331 two-byte letters do not fit as bytes', () => {
  // 2,331 characters fit in byte mode only when each is one byte.
  assert.equal(fitsQrCode('a'.repeat(2331)), true);
  assert.equal(fitsQrCode('ä'.repeat(1165)), true);
  assert.equal(fitsQrCode('ä'.repeat(1166)), false);
});
