import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { formatTimestamp, parseTimestamp, tryParseTimestamp } from './timestamp.js';

describe('event timestamps (SPEC.md §6: UTC, fractional seconds, RFC3339Nano style)', () => {
  test('the seed example round-trips with all nine digits', () => {
    const parsed = parseTimestamp('2024-08-16T13:12:12.677794352Z');
    assert.equal(parsed.epochNanos, 1_723_813_932_677_794_352n);
    assert.equal(parsed.date.toISOString(), '2024-08-16T13:12:12.677Z');
    assert.equal(formatTimestamp(parsed.epochNanos), '2024-08-16T13:12:12.677794352Z');
  });

  test('trailing zeros are trimmed and a whole second has no fraction', () => {
    assert.equal(formatTimestamp(1_723_813_932_100_000_000n), '2024-08-16T13:12:12.1Z');
    assert.equal(formatTimestamp(1_723_813_932_000_000_000n), '2024-08-16T13:12:12Z');
    assert.equal(formatTimestamp(1_723_813_932_000_000_001n), '2024-08-16T13:12:12.000000001Z');
  });

  test('other spellings and impossible instants are refused', () => {
    for (const text of [
      '2024-08-16T13:12:12.6777943520Z',
      '2024-08-16T13:12:12.10Z',
      '2024-08-16T15:12:12.1+02:00',
      '2024-08-16 13:12:12.1Z',
      '2024-08-16T13:12:12.1z',
      '2024-02-30T13:12:12.1Z',
      '2024-08-16T24:00:00Z',
      '2024-08-16T13:60:00Z',
      '2024-08-16T13:12:60Z',
      '1969-12-31T23:59:59.9Z',
      '',
    ]) {
      assert.equal(tryParseTimestamp(text), undefined, text);
    }
    assert.throws(() => parseTimestamp('yesterday'), { code: 'bad_request' });
  });
});
