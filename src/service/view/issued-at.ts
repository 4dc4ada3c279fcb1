/**
 * `issued_at` of the verify answer (SPEC.md §6): RFC 3339 local time in the configured zone with
 * its numeric UTC offset (`2024-08-16T15:12:12+02:00`).
 */

/** Formats unix seconds in one time zone; made once per service (an `Intl` formatter is costly). */
export class IssuedAtFormat {
  readonly #parts: Intl.DateTimeFormat;

  constructor(timeZone: string) {
    this.#parts = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
  }

  /** Unix seconds as RFC 3339 local time with its numeric offset. */
  format(unixSeconds: number): string {
    const parts: Record<string, string> = {};
    for (const p of this.#parts.formatToParts(new Date(unixSeconds * 1000))) {
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
}
