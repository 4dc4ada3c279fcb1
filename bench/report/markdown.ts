/** `bench/results/latest.md`: the same report as Markdown, with the facts needed to reproduce it. */
import { MIXED_RUN_ENVIRONMENT } from '../erx/instance.js';
import { fixed, int } from './format.js';
import { catchUpText, LOG_HEADER, logRows, logText } from './log-rows.js';
import type { Results } from './results.js';
import {
  CEILING_HEADER,
  FIGURE_HEADER,
  STREAMS_HEADER,
  TARGET_HEADER,
  ceilingRows,
  figureRows,
  streamsRows,
  streamsText,
  targetRows,
} from './rows.js';

/** Text columns align left, the others (numbers) right. */
const TEXT_COLUMNS = new Set([
  'passes',
  'figure',
  'set',
  'ceiling',
  'how',
  'target',
  'call',
  'met',
  'required',
  'measure',
  'worse',
  'condition',
]);

/** A Markdown table: text columns aligned left, numbers right. */
export function markdownTable(header: string[], rows: string[][]): string {
  const numeric = header.map((h) => !TEXT_COLUMNS.has(h));
  return [
    `| ${header.join(' | ')} |`,
    `|${numeric.map((n) => (n ? '---:' : '---')).join('|')}|`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ].join('\n');
}

/** How many passes each figure had (a run before passes existed had one). */
function passesText(results: Results): string {
  const passes = Number(results.settings.figure_passes ?? 1);
  return passes === 1
    ? 'one pass per figure'
    : `${passes} passes per figure, the sets taking turns`;
}

/** Renders the whole result as Markdown. */
export function renderMarkdown(results: Results): string {
  const m = results.machine;
  const mixed = results.mixed;
  const small = results.sets.small;
  const scale = results.sets.scale;
  const streams =
    results.sets.scale.streams === undefined
      ? ''
      : `## Dispense with event streams open (scale set)

${streamsText(results)}

${markdownTable(STREAMS_HEADER, streamsRows(results))}

`;
  const log =
    results.sets.scale.log === undefined
      ? ''
      : `## Dispense with the transparency log on and off (scale set)

${logText(results)}

${markdownTable(LOG_HEADER, logRows(results))}

`;
  const catchUp = catchUpText(results);
  const kinds = Object.entries(mixed.kinds).map(([name, k]) => [
    name,
    int(k.sent),
    int(k.ok),
    int(k.errors),
    fixed(k.latency.p50Ms),
    fixed(k.latency.p99Ms),
  ]);
  return `# erx benchmark: ${results.mode} run

- date: ${results.run.date}
- commit: \`${results.run.commit}\`${results.run.dirty ? ' (working tree modified)' : ''}
- machine: ${m.cpu_model}, ${m.cores} cores, ${m.memory_gib} GiB, ${m.platform}
- runtime: node ${m.node}, OpenSSL ${m.openssl}
- load average (1 min): ${fixed(m.load_average_at_start)} at start, ${fixed(results.run.load_average_at_end)} at end
- reproduce: \`npm run bench${results.mode === 'quick' ? ' -- --quick' : ''}\` (${int(results.run.seconds)} s this time)

## Ceilings (same run)

${markdownTable(CEILING_HEADER, ceilingRows(results))}

## Figures

Closed loop, ${results.settings.connections} connections; ${passesText(results)}, each ${results.settings.warmup_seconds} s warm-up then ${results.settings.figure_seconds} s measured; a figure is its best pass (the peak RSS and errors are those of every pass).
Small set: ${int(small.prescriptions)} prescriptions, ${int(small.events)} events (${small.source}).
Scale set: ${int(scale.prescriptions)} prescriptions, ${int(scale.events)} events (${scale.source === 'cache' ? `cached, built ${scale.load.date}` : 'built in this run'}; loader ${int(scale.load.events_per_s)} events/s).

${markdownTable(FIGURE_HEADER, figureRows(results))}
${catchUp === '' ? '' : `\n${catchUp}\n`}
ratio: requests/s ÷ the ceiling's rate. cost ratio: the ceiling's CPU time per operation ÷ erx's CPU
time per request; a busy neighbour lowers throughput but hardly CPU time, so it is the cross-check
when "other CPU" is not near 0 % (it leaves out the load generator's share of the cores).

${streams}${log}## Mixed open loop (scale set)

${int(mixed.offered)} calls/s offered for ${int(results.settings.mixed_seconds as number)} s (70 % verify with transactions, 25 % dispense, 5 % create), on an erx started for it with ${Object.entries(
    MIXED_RUN_ENVIRONMENT,
  )
    .map(([k, v]) => `\`${k}=${v}\``)
    .join(' ')}:
${int(mixed.achieved)}/s achieved, p50 ${fixed(mixed.p50_ms)} ms, p99 ${fixed(mixed.p99_ms)} ms, max ${fixed(mixed.max_ms)} ms, ${int(mixed.errors)} errors, peak RSS ${fixed(mixed.peak_rss_mb, 0)} MB, other processes ${Math.round(mixed.foreign_cpu * 100)} % of the CPU.

${markdownTable(['call', 'sent', 'ok', 'errors', 'p50 ms', 'p99 ms'], kinds)}

## Targets

${markdownTable(TARGET_HEADER, targetRows(results))}

${results.notes.map((n) => `- ${n}`).join('\n')}
`;
}
