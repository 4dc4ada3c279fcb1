import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IssuedAtFormat } from './issued-at.js';

function formatIssuedAt(unixSeconds: number, timeZone: string): string {
  return new IssuedAtFormat(timeZone).format(unixSeconds);
}

test('summer time in Zurich is +02:00 (the seed example)', () => {
  // 2024-08-16T13:12:12Z
  assert.equal(formatIssuedAt(1723813932, 'Europe/Zurich'), '2024-08-16T15:12:12+02:00');
});

test('winter time in Zurich is +01:00', () => {
  assert.equal(
    formatIssuedAt(Date.UTC(2024, 0, 15, 8, 0, 0) / 1000, 'Europe/Zurich'),
    '2024-01-15T09:00:00+01:00',
  );
});

test('UTC and a negative offset', () => {
  assert.equal(formatIssuedAt(0, 'UTC'), '1970-01-01T00:00:00+00:00');
  assert.equal(
    formatIssuedAt(Date.UTC(2024, 6, 1, 12, 0, 0) / 1000, 'America/New_York'),
    '2024-07-01T08:00:00-04:00',
  );
});

test('the instant is preserved across the DST change', () => {
  for (
    let t = Date.UTC(2024, 9, 27, 0, 0, 0) / 1000;
    t < Date.UTC(2024, 9, 27, 3, 0, 0) / 1000;
    t += 900
  ) {
    assert.equal(Date.parse(formatIssuedAt(t, 'Europe/Zurich')) / 1000, t);
  }
});
