/**
 * Dispense with the transparency log on and off: its passes take turns, each on an erx of its
 * own, every pass with the log on waits for the log to catch up first, its ratio is the mean on ÷
 * the mean off, it is judged against its target, and both reports show it and the catch-up (and
 * neither does for a run that did not measure it).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ErxTarget } from '../figures.js';
import { logConditionOf, measureLogFigure } from '../log-figure.js';
import type { LogCondition, LogFigure } from '../log-figure.js';
import { renderMarkdown } from './markdown.js';
import { figure, results, scale, set } from './results-fixture.js';
import { renderTable } from './table.js';

const TARGET = 'dispense with the transparency log on / off';

const target = (name: string): ErxTarget => ({
  url: `http://127.0.0.1/${name}`,
  prescriber: 'Bearer p',
  pharmacist: 'Bearer a',
  watch: () => () => ({ peakRssMb: 150, foreignCpu: 0, erxCpuSeconds: 1, loadCpuSeconds: 0.25 }),
});

/** Measures the figure on fakes: each condition's passes at the given rates, in order. */
async function measured(
  rates: Record<LogCondition, number[]>,
  p99: Record<LogCondition, number>,
): Promise<{ log: LogFigure; calls: string[] }> {
  const calls: string[] = [];
  const left = { off: [...rates.off], on: [...rates.on] };
  const log = await measureLogFigure(
    {
      passes: 2,
      start: async (condition, pass) => {
        calls.push(`start ${condition} ${pass}`);
        return {
          target: target(`${condition}-${pass}`),
          startedAt: 0,
          listeningAt: 0.4,
          stop: async () => void calls.push(`stop ${condition} ${pass}`),
        };
      },
      awaitCaughtUp: async (erx) => {
        calls.push(`caught up ${erx.target.url.split('/').pop()}`);
        return { seconds: 0.5, listening_seconds: 0.4, probes: 1 };
      },
      measure: async (erxTarget, receipts) => {
        calls.push(`measure ${erxTarget.url.split('/').pop()} receipts ${receipts}`);
        const condition: LogCondition = receipts ? 'on' : 'off';
        return {
          ...figure(left[condition].shift()!, p99[condition], receipts ? 2_000 : 1_800),
          load_cpu_us_per_request: receipts ? 750 : 500,
        };
      },
    },
    () => undefined,
  );
  return { log, calls };
}

describe('bench: dispense with the transparency log on and off', () => {
  it('takes turns so that every pass with the log has one without it beside it', () => {
    assert.deepEqual(
      Array.from({ length: 6 }, (_, i) => logConditionOf(i)),
      ['off', 'on', 'on', 'off', 'off', 'on'],
    );
  });

  it('starts an erx per pass and waits for the log before each pass with it on', async () => {
    const { log, calls } = await measured(
      { off: [900, 880], on: [850, 830] },
      { off: 100, on: 130 },
    );
    assert.deepEqual(calls, [
      'start off 0',
      'measure off-0 receipts false',
      'stop off 0',
      'start on 1',
      'caught up on-1',
      'measure on-1 receipts true',
      'stop on 1',
      'start on 2',
      'caught up on-2',
      'measure on-2 receipts true',
      'stop on 2',
      'start off 3',
      'measure off-3 receipts false',
      'stop off 3',
    ]);
    assert.equal(log.ratio, 840 / 890);
    assert.equal(log.cost_ratio, 1_800 / 2_000);
    assert.equal(log.machine_cost_ratio, (1_800 + 500) / (2_000 + 750));
    assert.deepEqual(
      log.passes.map((p) => p.load_cpu_us_per_request),
      [500, 750, 750, 500],
    );
    assert.equal(log.mean.on.p99_ms - log.mean.off.p99_ms, 30);
    assert.deepEqual(log.on.passes, [850, 830]);
    assert.deepEqual(
      log.passes.map((p) => p.catch_up_seconds),
      [undefined, 0.5, 0.5, undefined],
    );
  });

  it('is judged against 0.90 of dispense with the log off and reported', async () => {
    const { log } = await measured({ off: [900, 880], on: [850, 830] }, { off: 100, on: 130 });
    const catchUp = { seconds: 12.5, listening_seconds: 1.5, leaves: 5_500, probes: 1 };
    const met = results({ scale: { ...scale, log, log_catch_up: catchUp } });
    assert.equal(met.ratios.dispense_log_on_off, log.ratio);
    assert.equal(met.targets.find((t) => t.name === TARGET)?.met, true);
    const markdown = renderMarkdown(met);
    assert.match(markdown, /## Dispense with the transparency log on and off \(scale set\)/);
    assert.match(
      markdown,
      /\| log off \(ERX_LOG=off\) \| 890 \| 900 \/ 880 \| 25\.00 \| 100\.00 \|/,
    );
    assert.match(markdown, /\| log on, a receipt in every answer \| 840 \| 850 \/ 830 \|/);
    assert.match(markdown, /0\.836 for erx and the load generator together/);
    assert.match(
      markdown,
      /p99 \+30\.0 ms, erx CPU \+200 µs and load generator CPU \+250 µs per dispense/,
    );
    assert.match(
      markdown,
      /the scale set's 5,500 events 12\.5 s after erx's start \(it listened after 1\.5 s; checkpoint of that size\)/,
    );
    assert.match(markdown, new RegExp(`\\| ${TARGET} \\| 0\\.944 \\| ≥ 0\\.9 \\| yes \\|`));
    assert.match(renderTable(met), /log on, a receipt in every answer/);

    const slow = await measured({ off: [900, 880], on: [700, 720] }, { off: 100, on: 300 });
    const missed = results({ scale: { ...scale, log: slow.log } });
    assert.equal(missed.targets.find((t) => t.name === TARGET)?.met, false);
    assert.equal(missed.targets_met, false);
  });

  it('leaves the figure, its target and the catch-up out of a run that measured none', () => {
    const without = results({ scale: set(scale.figures) });
    assert.equal(without.ratios.dispense_log_on_off, undefined);
    assert.equal(
      without.targets.find((t) => t.name === TARGET),
      undefined,
    );
    assert.doesNotMatch(renderMarkdown(without), /transparency log|catch-up/);
    assert.doesNotMatch(renderTable(without), /transparency log|catch-up/);
  });
});
