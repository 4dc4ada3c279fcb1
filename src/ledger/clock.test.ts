import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { Clock } from './clock.js';
import { formatTimestamp, parseTimestamp } from './timestamp.js';

describe('clock', () => {
  test('event nanoseconds are close to the wall clock, have sub-millisecond digits and never go back', () => {
    const clock = new Clock();
    const values = Array.from({ length: 2_000 }, () => clock.nanos());
    const wall = BigInt(Date.now()) * 1_000_000n;
    const last = values.at(-1) ?? 0n;
    assert.ok(wall - last < 50_000_000n && last - wall < 50_000_000n, 'within 50 ms of Date.now()');
    for (let i = 1; i < values.length; i++) assert.ok((values[i] ?? 0n) > (values[i - 1] ?? 0n));
    assert.ok(
      values.some((v) => v % 1_000_000n !== 0n),
      'some value has digits below the millisecond',
    );
  });

  test('moving the wall clock moves event time with it', () => {
    let wall = 1_700_000_000_000;
    const clock = new Clock(() => wall);
    const first = clock.nanos();
    assert.equal(first / 1_000_000n, BigInt(wall));
    wall += 86_400_000;
    assert.equal(clock.nanos() / 1_000_000n, BigInt(wall));
    assert.equal(clock.now(), wall);
  });

  test('strictly increasing when the wall clock stands still or steps back', () => {
    let wall = 1_700_000_000_000;
    const clock = new Clock(
      () => wall,
      () => 0n,
    );
    const first = clock.nanos();
    const second = clock.nanos();
    wall -= 60_000;
    const third = clock.nanos();
    assert.ok(second > first);
    assert.ok(third > second);
  });

  test('an event is never dated before the head it follows', () => {
    const clock = new Clock(() => 1_700_000_000_000);
    const later = formatTimestamp(1_800_000_000_000n * 1_000_000n + 5n);
    assert.equal(clock.nanosNotBefore(later), parseTimestamp(later).epochNanos);
    assert.ok(clock.nanosNotBefore(undefined) < parseTimestamp(later).epochNanos);
  });

  test('two clocks keep separate state', () => {
    const a = new Clock(() => 1_700_000_000_000);
    const b = new Clock(() => 1_600_000_000_000);
    assert.equal(a.nanos() / 1_000_000n, 1_700_000_000_000n);
    assert.equal(b.nanos() / 1_000_000n, 1_600_000_000_000n);
  });
});
