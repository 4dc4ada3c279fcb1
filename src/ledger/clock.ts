/**
 * The one clock of an erx instance, created by the runtime and passed down: unix milliseconds for
 * the rules (validity, locks, idempotency) and the nanoseconds events are dated with (SPEC.md §6),
 * both from the same wall clock, so a test that moves `now` moves event time too.
 */
import { parseTimestamp } from './timestamp.js';

const NANOS_PER_MILLI = 1_000_000n;
/** Beyond this gap between the high-resolution estimate and the wall clock, re-anchor. */
const MAX_DRIFT_NANOS = 10n * NANOS_PER_MILLI;

/** Unix milliseconds and event nanoseconds from one wall clock. */
export class Clock {
  /** The wall clock, unix ms (`Date.now` unless a test gives its own). */
  readonly now: () => number;
  readonly #hr: () => bigint;
  #anchorWall = 0n;
  #anchorHr = 0n;
  #last = 0n;

  /** A clock reading `wall` (unix ms), refined below the millisecond by `hr` (nanoseconds). */
  constructor(wall: () => number = Date.now, hr: () => bigint = process.hrtime.bigint) {
    this.now = wall;
    this.#hr = hr;
  }

  /**
   * Nanoseconds since the epoch: the wall clock, refined below the millisecond by the monotonic
   * clock; strictly increasing on this clock, even if the wall clock steps back a little.
   */
  nanos(): bigint {
    const hr = this.#hr();
    const wall = BigInt(Math.floor(this.now())) * NANOS_PER_MILLI;
    let estimate = this.#anchorWall + (hr - this.#anchorHr);
    const drift = estimate > wall ? estimate - wall : wall - estimate;
    if (this.#anchorWall === 0n || drift > MAX_DRIFT_NANOS) {
      // The true time lies somewhere in [wall, wall + 1 ms); the monotonic clock picks the digits.
      this.#anchorWall = wall + (hr % NANOS_PER_MILLI);
      this.#anchorHr = hr;
      estimate = this.#anchorWall;
    }
    this.#last = estimate > this.#last ? estimate : this.#last + 1n;
    return this.#last;
  }

  /**
   * The time of an event that follows one stamped `previous`: now, or `previous` itself while the
   * clock is behind it (the clock stepped back, or another instance whose clock is ahead appended
   * the previous event), so time never runs backwards along a chain (`check-time.ts`).
   */
  nanosNotBefore(previous: string | undefined): bigint {
    const now = this.nanos();
    if (previous === undefined) return now;
    const floor = parseTimestamp(previous).epochNanos;
    return now >= floor ? now : floor;
  }
}
