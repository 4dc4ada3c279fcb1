/**
 * W3C Trace Context (`traceparent`) of a request (SPEC.md §8): taken from the incoming header when
 * valid, generated otherwise; erx answers under a span of its own within that trace.
 */
import { randomFillSync } from 'node:crypto';

/** The trace object of the seed §7 error shape. */
export interface Trace {
  Version: string;
  TraceID: string;
  ParentID: string;
  Flags: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/**
 * Random trace and span ids of one application, cut from a pool of random bytes refilled in one
 * call, not drawn one call per id.
 */
export class TraceIds {
  readonly #pool = Buffer.alloc(4096);
  #used = this.#pool.length;

  /** `bytes` random bytes as lower-case hex. */
  hex(bytes: number): string {
    if (this.#used + bytes > this.#pool.length) {
      randomFillSync(this.#pool);
      this.#used = 0;
    }
    this.#used += bytes;
    return this.#pool.toString('hex', this.#used - bytes, this.#used);
  }
}

/**
 * Builds this request's trace: the caller's trace id and flags (when valid) and a new span id
 * drawn from `ids`.
 */
export function traceFor(header: string | string[] | undefined, ids: TraceIds): Trace {
  const incoming = typeof header === 'string' ? TRACEPARENT.exec(header.trim()) : null;
  // Version ff is forbidden and all-zero ids are invalid (W3C Trace Context §3.2).
  if (incoming && incoming[1] !== 'ff' && incoming[2] !== ZERO_TRACE && incoming[3] !== ZERO_SPAN) {
    return {
      Version: '00',
      TraceID: incoming[2] as string,
      ParentID: ids.hex(8),
      Flags: incoming[4] as string,
    };
  }
  return {
    Version: '00',
    TraceID: ids.hex(16),
    ParentID: ids.hex(8),
    Flags: '01',
  };
}

/** The `traceparent` header value of a trace. */
export function formatTraceparent(t: Trace): string {
  return `${t.Version}-${t.TraceID}-${t.ParentID}-${t.Flags}`;
}
