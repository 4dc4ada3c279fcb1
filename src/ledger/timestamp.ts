/**
 * Event timestamps (SPEC.md §6): UTC, RFC 3339 with fractional seconds in Go's RFC3339Nano
 * style — up to nine digits, trailing zeros trimmed (`2024-08-16T13:12:12.677794352Z`).
 */
import { ErxError } from '../errors.js';

const NANOS_PER_MILLI = 1_000_000n;
const NANOS_PER_SECOND = 1_000_000_000n;
const PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?Z$/;

/** Formats nanoseconds since the epoch as an event timestamp. */
export function formatTimestamp(epochNanos: bigint): string {
  const seconds = epochNanos / NANOS_PER_SECOND;
  const fraction = epochNanos % NANOS_PER_SECOND;
  const whole = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  // The lookbehind tries only the first zero of a run: `/0+$/` is quadratic on a long one.
  const digits = fraction
    .toString()
    .padStart(9, '0')
    .replace(/(?<!0)0+$/, '');
  return digits === '' ? `${whole}Z` : `${whole}.${digits}Z`;
}

/** A parsed event timestamp. */
export interface ParsedTimestamp {
  /** Nanoseconds since the epoch (full precision). */
  readonly epochNanos: bigint;
  /** The same instant, truncated to milliseconds. */
  readonly date: Date;
}

/** Parses an event timestamp; `undefined` unless it is exactly the format above and a real instant. */
export function tryParseTimestamp(text: string): ParsedTimestamp | undefined {
  const match = PATTERN.exec(text);
  if (match === null) return undefined;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const fractionText = match[7] ?? '';
  if (fractionText.endsWith('0')) return undefined;
  const millis = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(millis);
  // Date.UTC rolls over (Feb 30 becomes Mar 2); a real instant reads back the same fields.
  if (
    year < 1970 ||
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    check.getUTCHours() !== hour ||
    check.getUTCMinutes() !== minute ||
    check.getUTCSeconds() !== second
  ) {
    return undefined;
  }
  const fraction = BigInt(fractionText.padEnd(9, '0'));
  const epochNanos = BigInt(millis) * NANOS_PER_MILLI + fraction;
  return { epochNanos, date: new Date(Number(epochNanos / NANOS_PER_MILLI)) };
}

/** Parses an event timestamp; throws `bad_request` when it is not one. */
export function parseTimestamp(text: string): ParsedTimestamp {
  const parsed = tryParseTimestamp(text);
  if (parsed === undefined) throw new ErxError('bad_request', 'Invalid event timestamp');
  return parsed;
}
