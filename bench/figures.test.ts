/**
 * A figure measured in passes is its best pass (as a ceiling is), and keeps what every pass saw:
 * the highest peak RSS, all errors and status counts, and each pass's rate.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bestPass } from './figures.js';
import type { Figure } from './figures.js';

function pass(rps: number, over: Partial<Figure> = {}): Figure {
  return {
    rps,
    p50_ms: 10_000 / rps,
    p90_ms: 20_000 / rps,
    p99_ms: 40_000 / rps,
    max_ms: 80_000 / rps,
    peak_rss_mb: 150,
    foreign_cpu: 0.01,
    cpu_us_per_request: 2_000_000 / rps,
    load_cpu_us_per_request: 500_000 / rps,
    ok: rps * 3,
    errors: 0,
    seconds: 3,
    status_counts: { '200': rps * 3 },
    pool_wraps: 0,
    passes: [rps],
    ...over,
  };
}

describe('bestPass', () => {
  it('answers the first pass as it is', () => {
    const first = pass(900);
    assert.equal(bestPass(undefined, first), first);
  });

  it('takes the faster pass with its own latencies and CPU time, in either order', () => {
    const slow = pass(800);
    const fast = pass(1_000);
    for (const [a, b] of [
      [slow, fast],
      [fast, slow],
    ] as const) {
      const best = bestPass(a, b);
      assert.equal(best.rps, 1_000);
      assert.equal(best.p99_ms, fast.p99_ms);
      assert.equal(best.p50_ms, fast.p50_ms);
      assert.equal(best.cpu_us_per_request, fast.cpu_us_per_request);
      assert.equal(best.ok, fast.ok);
    }
    assert.deepEqual(bestPass(slow, fast).passes, [800, 1_000]);
    assert.deepEqual(bestPass(fast, slow).passes, [1_000, 800]);
  });

  it('keeps the highest peak RSS and every error of every pass', () => {
    const fast = pass(1_000, {
      peak_rss_mb: 180,
      errors: 2,
      status_counts: { '200': 2_998, '503': 2 },
    });
    const slow = pass(700, {
      peak_rss_mb: 230,
      errors: 5,
      status_counts: { '200': 2_095, '500': 5 },
    });
    const best = bestPass(fast, slow);
    assert.equal(best.rps, 1_000);
    assert.equal(best.peak_rss_mb, 230);
    assert.equal(best.errors, 7);
    assert.deepEqual(best.status_counts, { '200': 5_093, '503': 2, '500': 5 });
  });

  it('keeps the most a pool of distinct prescriptions was reused, and folds three passes', () => {
    const best = bestPass(
      bestPass(pass(600), pass(900, { pool_wraps: 1 })),
      pass(700, { pool_wraps: 2 }),
    );
    assert.equal(best.rps, 900);
    assert.equal(best.pool_wraps, 2);
    assert.deepEqual(best.passes, [600, 900, 700]);
  });
});
