/**
 * Durations in the configuration (SPEC.md §10): a whole number and a unit, `s`, `m`, `h` or `d`,
 * as in `365d` or `15m`.
 */

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

const DURATION = /^(\d{1,9})([smhd])$/;

/** The duration `text` in milliseconds, or undefined when it is not one (or is zero). */
export function parseDuration(text: string): number | undefined {
  const match = DURATION.exec(text);
  if (match === null) return undefined;
  const ms = Number(match[1]) * UNIT_MS[match[2] as keyof typeof UNIT_MS];
  return ms > 0 ? ms : undefined;
}
