/**
 * A figure counts only calls erx served: any answer other than 2xx in a closed-loop run, warm-up
 * included, fails it; an open-loop run fails on a refusal (4xx) but not on the 503s and timeouts
 * it measures of an overloaded erx.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ClosedLoopResult } from './closed-loop-protocol.js';
import { requireBodies, requireNoRefusals, requireServed, unservedAnswers } from './served.js';

function run(
  statusCounts: Record<string, number>,
  warmupStatusCounts: Record<string, number> = {},
): ClosedLoopResult {
  const non2xx = (counts: Record<string, number>): number =>
    Object.entries(counts)
      .filter(([status]) => !status.startsWith('2'))
      .reduce((n, [, count]) => n + count, 0);
  const ok = statusCounts['200'] ?? 0;
  return {
    rps: ok / 3,
    ok,
    non2xx: non2xx(statusCounts),
    errors: 0,
    seconds: 3,
    latency: { count: ok, p50Ms: 1, p90Ms: 2, p99Ms: 3, maxMs: 4, meanMs: 1.5 },
    statusCounts,
    warmupNon2xx: non2xx(warmupStatusCounts),
    warmupStatusCounts,
    issued: ok + non2xx(statusCounts) + non2xx(warmupStatusCounts),
    bodyMismatches: 0,
  };
}

describe('requireServed', () => {
  it('lets a run whose every answer was 2xx pass', () => {
    assert.doesNotThrow(() => requireServed('dispense', run({ '200': 5_000 }, { '200': 900 })));
  });

  it('fails on a refusal in the measured run, naming the statuses and the hint', () => {
    assert.throws(
      () => requireServed('dispense', run({ '200': 4_000, '403': 17 }), '2500 packages'),
      (error: unknown) =>
        error instanceof Error &&
        error.message === 'dispense: answers other than 2xx (17 × 403); 2500 packages',
    );
  });

  it('fails on a refusal in the warm-up alone', () => {
    const result = run({ '200': 4_000 }, { '200': 100, '409': 2 });
    assert.deepEqual(unservedAnswers(result), { '409': 2 });
    assert.throws(() => requireServed('dispense', result), /\(2 × 409\)/);
  });

  it('adds up a status seen in both parts', () => {
    const result = run({ '200': 10, '500': 1 }, { '500': 2 });
    assert.deepEqual(unservedAnswers(result), { '500': 3 });
    assert.throws(() => requireServed('create', result), /^Error: create: .*3 × 500/);
  });
});

describe('requireBodies', () => {
  it('lets a run whose every answer had what was expected pass', () => {
    assert.doesNotThrow(() => requireBodies('dispense', run({ '200': 5_000 }), 'a receipt'));
  });

  it('fails on a single answer without it, as on a status other than 2xx', () => {
    const result = { ...run({ '200': 5_000 }, { '200': 900 }), bodyMismatches: 1 };
    assert.throws(
      () => requireBodies('dispense, log on', result, 'a receipt'),
      /^Error: dispense, log on: 1 answers not as expected \(a receipt\)/,
    );
  });
});

describe('requireNoRefusals', () => {
  it('lets shedding and timeouts of an overloaded erx pass', () => {
    assert.doesNotThrow(() =>
      requireNoRefusals('mixed', { '200': 40_000, '503': 120, timeout: 3, 'socket-error': 1 }),
    );
  });

  it('fails on any 4xx answer', () => {
    assert.throws(
      () => requireNoRefusals('mixed', { '200': 40_000, '403': 5, '503': 1 }),
      (error: unknown) =>
        error instanceof Error && error.message === 'mixed: refused calls (5 × 403)',
    );
  });
});
