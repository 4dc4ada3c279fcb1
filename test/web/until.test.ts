/**
 * The counter's lock end (web/src/counter/until.ts) is written like every other date on the page:
 * 31.12.2025 and HH:MM in every language, not "27 Nov" or "Nov 27".
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUntil } from '../../web/src/counter/until.js';
import { formatDate } from '../../web/src/i18n/date-format.js';

test('a lock ending on another day reads 31.12.2025, HH:MM in de, fr and en', () => {
  const until = new Date(2026, 11, 31, 14, 5).toISOString();
  const now = new Date(2026, 11, 30, 9, 0);
  for (const lang of ['de', 'fr', 'en'] as const) {
    const text = formatUntil(lang, until, now);
    assert.equal(text, `${formatDate(until)}, 14:05`, lang);
    assert.match(text, /^31\.12\.2026, 14:05$/, lang);
  }
});

test('a lock ending today reads HH:MM alone', () => {
  const until = new Date(2026, 10, 27, 9, 7).toISOString();
  for (const lang of ['de', 'fr', 'en'] as const) {
    assert.equal(formatUntil(lang, until, new Date(2026, 10, 27, 8, 0)), '09:07', lang);
  }
});
