/**
 * Dispense with event streams open: its passes take turns with those without, its ratio is the
 * mean with ÷ the mean without, it is judged against its target, and both reports show it (and
 * neither does for a run that did not measure it).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bestPass } from '../figures.js';
import { conditionOf } from '../streams-figure.js';
import type { StreamsFigure } from '../streams-figure.js';
import { renderMarkdown } from './markdown.js';
import { figure, results, scale, set } from './results-fixture.js';
import { renderTable } from './table.js';

function passes(rates: number[], cpuUs: number) {
  return rates.map((rps) => figure(rps, 120, cpuUs)).reduce(bestPass);
}

function streams(withRates: number[], withoutRates: number[]): StreamsFigure {
  const mean = (r: number[]): number => r.reduce((a, b) => a + b, 0) / r.length;
  return {
    streams: 200,
    subjects: 40,
    seeing: 10,
    without: passes(withoutRates, 1_800),
    with: passes(withRates, 2_000),
    order: ['without', 'with', 'with', 'without'],
    ratio: mean(withRates) / mean(withoutRates),
    cost_ratio: 0.9,
    cpu_us_per_request: {
      without: withoutRates.map(() => 1_800),
      with: withRates.map(() => 2_000),
    },
    events_received: { seeing_min: 3_000, seeing_max: 3_004, others: 0 },
  };
}

const TARGET = 'dispense with 200 event streams open / without';

describe('bench: dispense with event streams open', () => {
  it('alternates the conditions so that every pass with streams has one without beside it', () => {
    assert.deepEqual(
      Array.from({ length: 6 }, (_, i) => conditionOf(i)),
      ['without', 'with', 'with', 'without', 'without', 'with'],
    );
  });

  it('is judged against 0.90 of dispense without streams and reported', () => {
    const met = results({ scale: { ...scale, streams: streams([800, 780], [850, 830]) } });
    assert.equal(met.ratios.dispense_with_streams, 1_580 / 1_680);
    assert.equal(met.targets.find((t) => t.name === TARGET)?.met, true);
    const markdown = renderMarkdown(met);
    assert.match(markdown, /## Dispense with event streams open \(scale set\)/);
    assert.match(markdown, /\| with 200 streams open \| 790 \| 800 \/ 780 \|/);
    assert.match(renderTable(met), /with 200 streams open/);
    // A ratio, with three decimals (its name holds "ms" only inside "streams").
    assert.match(
      markdown,
      /\| dispense with 200 event streams open \/ without \| 0\.940 \| ≥ 0\.9 \| yes \|/,
    );

    const missed = results({ scale: { ...scale, streams: streams([700, 720], [850, 830]) } });
    assert.equal(missed.targets.find((t) => t.name === TARGET)?.met, false);
    assert.equal(missed.targets_met, false);
  });

  it('leaves the figure and its target out of a run that did not measure it', () => {
    const without = results({ scale: set(scale.figures) });
    assert.equal(without.ratios.dispense_with_streams, undefined);
    assert.equal(
      without.targets.find((t) => t.name === TARGET),
      undefined,
    );
    assert.doesNotMatch(renderMarkdown(without), /event streams open/);
  });
});
