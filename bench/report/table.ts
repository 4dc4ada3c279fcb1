/** The plain-text report printed on stdout. */
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

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** Renders the whole result as text. */
export function renderTable(results: Results): string {
  const m = results.machine;
  const mixed = results.mixed;
  return [
    `erx bench (${results.mode}) ${results.run.date}, commit ${results.run.commit.slice(0, 12)}${results.run.dirty ? ' (working tree modified)' : ''}`,
    `${m.cpu_model}, ${m.cores} cores, ${m.memory_gib} GiB, node ${m.node}, OpenSSL ${m.openssl}, load average ${fixed(m.load_average_at_start)} at start, ${fixed(results.run.load_average_at_end)} at end`,
    '',
    table(CEILING_HEADER, ceilingRows(results)),
    '',
    table(FIGURE_HEADER, figureRows(results)),
    '',
    ...(catchUpText(results) === '' ? [] : [catchUpText(results), '']),
    ...(results.sets.scale.streams === undefined
      ? []
      : [streamsText(results), '', table(STREAMS_HEADER, streamsRows(results)), '']),
    ...(results.sets.scale.log === undefined
      ? []
      : [logText(results), '', table(LOG_HEADER, logRows(results)), '']),
    `mixed open loop on the scale set: ${int(mixed.offered)} calls/s offered for ${int(results.settings.mixed_seconds as number)} s, ` +
      `${int(mixed.achieved)}/s achieved, p50 ${fixed(mixed.p50_ms)} ms, p99 ${fixed(mixed.p99_ms)} ms, max ${fixed(mixed.max_ms)} ms, ` +
      `${int(mixed.errors)} errors, peak RSS ${fixed(mixed.peak_rss_mb, 0)} MB, other processes ${Math.round(mixed.foreign_cpu * 100)} % of the CPU`,
    '',
    table(TARGET_HEADER, targetRows(results)),
    '',
    ...results.notes.map((n) => `note: ${n}`),
  ].join('\n');
}
