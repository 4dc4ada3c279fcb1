/**
 * `issued_at` of the verify answer: the link's `t` as a date-time with the UTC offset of the
 * configured zone, seconds precision (SPEC.md §6: `2024-08-16T15:12:12+02:00`).
 */

import { LruCache } from '../lru-cache.js';

const formatters = new Map<string, Intl.DateTimeFormat>();
// Formatting through Intl is slow, and the same prescriptions are verified again and again.
const formatted = new LruCache<string>(4_096);

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** Formats unix seconds as RFC 3339 local time in `timeZone` with its numeric offset. */
export function formatIssuedAt(unixSeconds: number, timeZone: string): string {
  const key = `${timeZone} ${unixSeconds}`;
  let text = formatted.get(key);
  if (text === undefined) {
    text = formatUncached(unixSeconds, timeZone);
    formatted.set(key, text);
  }
  return text;
}

function formatUncached(unixSeconds: number, timeZone: string): string {
  const parts: Record<string, string> = {};
  for (const p of formatterFor(timeZone).formatToParts(new Date(unixSeconds * 1000))) {
    parts[p.type] = p.value;
  }
  const local = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  );
  const offsetMinutes = Math.round((local - unixSeconds * 1000) / 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const hh = String(Math.floor(abs / 60)).padStart(2, '0');
  const mm = String(abs % 60).padStart(2, '0');
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${sign}${hh}:${mm}`;
}
