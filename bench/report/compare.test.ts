/**
 * The comparison of two builds measured in turns: each figure old, new and new ÷ old, a figure
 * more than 10 % worse flagged in the direction that is worse for it, and the Markdown record.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compareResults, isWorse, renderComparison } from './compare.js';
import { figure, mixed, results, scale, set, small } from './results-fixture.js';

const OLD_COMMIT = 'a'.repeat(40);
const old = results({ commit: OLD_COMMIT });
const next = results({
  // 15 % fewer verifies/s, 5 % fewer creates/s (within the tolerance), a much faster cold verify.
  small: set({
    ...small.figures,
    verify_anon: figure(8_500, 8, 100),
    create: figure(1_045, 90, 1_500),
  }),
  scale: set({ ...scale.figures, verify_cold: figure(4_400, 40, 400) }),
  mixed: mixed(2_400, 92, 3),
});
const comparison = compareResults(old, next, 'b26bb72');

describe('comparison of two builds', () => {
  it('flags a figure only when it is worse by more than 10 %, either way round', () => {
    assert.equal(isWorse(1_000, 900, true), false);
    assert.equal(isWorse(1_000, 899, true), true);
    assert.equal(isWorse(1_000, 2_000, true), false);
    assert.equal(isWorse(10, 11, false), false);
    assert.equal(isWorse(10, 11.1, false), true);
    assert.equal(isWorse(10, 5, false), false);
    assert.equal(isWorse(0, 0, false), false);
    assert.equal(isWorse(0, 1, false), true);
  });

  it('compares every measure of every figure, and flags the ones the new build does worse', () => {
    const flagged = comparison.figures
      .filter((f) => f.worse)
      .map((f) => `${f.figure} | ${f.set} | ${f.measure}`);
    assert.deepEqual(flagged, [
      'verify anonymous | small (1,000) | req/s',
      'mixed run | scale, open loop | p99 ms',
      'mixed run | scale, open loop | errors',
    ]);
    assert.equal(comparison.worse, 3);
    // 4 measures of 4 figures on the small set and 5 on the scale set, 5 of the mixed run, 1 RSS.
    assert.equal(comparison.figures.length, 4 * 9 + 5 + 1);
    const anon = comparison.figures.find((f) => f.figure === 'verify anonymous');
    assert.deepEqual(anon, {
      figure: 'verify anonymous',
      set: 'small (1,000)',
      measure: 'req/s',
      old: 10_000,
      new: 8_500,
      ratio: 0.85,
      higher_is_better: true,
      worse: true,
    });
    assert.deepEqual(comparison.verify_cold_to_warm, {
      old: 300 / 8_000,
      new: 4_400 / 8_000,
      limit: 0.5,
      met: true,
    });
    assert.equal(comparison.old.commit, OLD_COMMIT);
    assert.equal(comparison.new.dirty, true);
  });

  it('writes a Markdown record: each figure old, new, new ÷ old and its flag, and the verdict', () => {
    const text = renderComparison(comparison);
    const lines = text.split('\n');
    for (const row of [
      '| verify anonymous | small (1,000) | req/s | 10,000 | 8,500 | 0.85 | WORSE by 15 % |',
      '| create (data) | small (1,000) | req/s | 1,100 | 1,045 | 0.95 |  |',
      '| verify with transactions, never verified since start | scale (1,000) | req/s | 300 | 4,400 | 14.67 |  |',
      '| verify with transactions, never verified since start | scale (1,000) | p99 ms | 280.00 | 40.00 | 0.14 |  |',
      '| mixed run | scale, open loop | p99 ms | 80.00 | 92.00 | 1.15 | WORSE by 15 % |',
      '| mixed run | scale, open loop | errors | 0 | 3 | – | WORSE (was 0) |',
    ]) {
      assert.ok(lines.includes(row), `missing row ${row}`);
    }
    assert.ok(lines.includes('|---|---|---|---:|---:|---:|---|'));
    assert.ok(
      lines.includes(
        "3 of 42 figures of the new build are worse than the old one's by more than 10 %:",
      ),
    );
    assert.ok(lines.includes('- verify anonymous, small (1,000): req/s 0.85 × the old'));
    assert.ok(lines.includes('- mixed run, scale, open loop: errors was 0'));
    assert.match(
      text,
      /warm verify with transactions: old 0\.037, new 0\.550 \(required ≥ 0\.5: met\)/,
    );
    assert.match(text, /`npm run bench -- --quick --compare b26bb72`/);
    assert.match(text, new RegExp(`- old: \`${OLD_COMMIT}\``));
    // A note both builds have is written once, without a build's name.
    const shared = next.notes[0]!;
    assert.equal(text.split(shared).length - 1, 1);
    assert.ok(lines.includes(`- ${shared}`));
  });

  it('says so when no figure is worse', () => {
    const same = compareResults(old, old, 'HEAD~1');
    assert.equal(same.worse, 0);
    assert.ok(same.figures.every((f) => f.ratio === null || f.ratio === 1));
    assert.match(renderComparison(same), /No figure of the new build is worse than the old one's/);
    assert.match(renderComparison(same), /new 0\.037 \(required ≥ 0\.5: NOT met\)/);
  });
});
