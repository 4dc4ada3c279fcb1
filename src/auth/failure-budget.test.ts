/** The failure budget of client authentication: per address, per client id, per window. */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ErxError } from '../errors.js';
import { FailureBudget } from './failure-budget.js';

const START = Date.UTC(2024, 7, 16, 13, 12, 12);

function refusedAfter(seconds: number) {
  return (error: unknown) =>
    error instanceof ErxError && error.code === 'too_many_requests' && error.retryAfter === seconds;
}

describe('FailureBudget', () => {
  function budget(now: () => number) {
    return new FailureBudget({ perAddress: 3, perClient: 5, windowMs: 10_000, now });
  }

  it('refuses an address after its failures until the window has passed', () => {
    let now = START;
    const b = budget(() => now);
    for (let i = 0; i < 3; i++) b.begin('192.0.2.1', `id-${i}`).end(true);
    now += 2_500;
    assert.throws(() => b.begin('192.0.2.1', 'another'), refusedAfter(8));
    // Another address is not affected.
    b.begin('192.0.2.2', 'another').end(false);
    now = START + 10_000;
    b.begin('192.0.2.1', 'another').end(true);
  });

  it('refuses a client id after failures from many addresses, unknown ids alike', () => {
    let now = START;
    const b = budget(() => now);
    for (let i = 0; i < 5; i++) b.begin(`192.0.2.${i}`, 'no-such-client').end(true);
    now += 1_000;
    assert.throws(() => b.begin('198.51.100.9', 'no-such-client'), refusedAfter(9));
    b.begin('198.51.100.9', 'other-client').end(false);
  });

  it('does not count successes, nor attempts that ended without a verdict', () => {
    const b = budget(() => START);
    for (let i = 0; i < 20; i++) b.begin('192.0.2.1', 'client').end(false);
    b.begin('192.0.2.1', 'client').end(true);
    b.begin('192.0.2.1', 'client').end(true);
    b.begin('192.0.2.1', 'client').end(false);
  });

  it('counts attempts still being checked, so a burst is refused before any has failed', () => {
    const b = budget(() => START);
    const running = [1, 2, 3].map(() => b.begin('192.0.2.1', 'client'));
    // Pending attempts only hold the budget for a moment: retry after a second.
    assert.throws(() => b.begin('192.0.2.1', 'client'), refusedAfter(1));
    for (const attempt of running) attempt.end(false);
    b.begin('192.0.2.1', 'client').end(false);
  });

  it('an attempt ends once; calls from inside erx count per client only', () => {
    const b = budget(() => START);
    const attempt = b.begin(undefined, 'client');
    attempt.end(true);
    attempt.end(true);
    for (let i = 0; i < 3; i++) b.begin(undefined, 'client').end(true);
    b.begin(undefined, 'client').end(true);
    assert.throws(() => b.begin('192.0.2.1', 'client'), refusedAfter(10));
  });

  it('forgets the least recently seen keys beyond its bound', () => {
    const b = new FailureBudget({ perAddress: 1, perClient: 100, maxKeys: 2, now: () => START });
    b.begin('192.0.2.1', 'c').end(true);
    b.begin('192.0.2.2', 'c').end(true);
    b.begin('192.0.2.3', 'c').end(true);
    assert.throws(() => b.begin('192.0.2.3', 'c'), refusedAfter(10));
    b.begin('192.0.2.1', 'c').end(false);
  });
});
