/**
 * What every answer must satisfy (SPEC.md §8, seed §7): never a 5xx, every error in the seed
 * shape with a code from the closed list and its own status, the trace echoed; plus the process
 * checks of the fuzz suites (prototype pollution, memory after a full garbage collection).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { ERROR_CODES } from '../../../src/errors.js';
import { OAUTH_ERRORS } from '../../../src/api/index.js';
import type { ErrorCode } from '../../../src/errors.js';
import { HTTP_STATUS } from '../../../src/http/status.js';
import { POLLUTION_MARKERS } from './documents.js';

/** An answer as both transports report it. */
export interface FuzzAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

const HEX2 = /^[0-9a-f]{2}$/;
const HEX16 = /^[0-9a-f]{16}$/;
const HEX32 = /^[0-9a-f]{32}$/;
const TRACE_KEYS = ['Flags', 'ParentID', 'TraceID', 'Version'];
// `violations` and `params` are erx's additions beside the seed's fields (docs/decisions.md).
const TOP_KEYS = new Set(['error_code', 'message', 'trace', 'cause', 'violations', 'params']);
// What must never reach a client: stack frames and SQL engine errors (SPEC.md §8).
const LEAKS = /\bat [^\s]+ \([^)]*:\d+:\d+\)|SQLITE_|node:internal/;

function header(answer: FuzzAnswer, name: string): string | undefined {
  const value = answer.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

function traceProblem(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return 'trace is not an object';
  const t = value as Record<string, unknown>;
  if (Object.keys(t).sort().join() !== TRACE_KEYS.join()) return 'trace keys';
  if (t.Version !== '00') return 'trace.Version';
  if (typeof t.TraceID !== 'string' || !HEX32.test(t.TraceID)) return 'trace.TraceID';
  if (typeof t.ParentID !== 'string' || !HEX16.test(t.ParentID)) return 'trace.ParentID';
  if (typeof t.Flags !== 'string' || !HEX2.test(t.Flags)) return 'trace.Flags';
  return undefined;
}

/**
 * RFC 6749 §5.2's `error` and `error_description`, which the token endpoints add to a 400 or 401
 * (`TokenErrorBody`): allowed only as that pair, a known code and the message again.
 */
function oauthField(answer: FuzzAnswer, body: Record<string, unknown>, key: string): boolean {
  if (key !== 'error' && key !== 'error_description') return false;
  return (
    (answer.status === 400 || answer.status === 401) &&
    (OAUTH_ERRORS as readonly unknown[]).includes(body.error) &&
    body.error_description === body.message
  );
}

/** The first way an error answer departs from the seed §7 shape, or undefined. */
function errorShapeProblem(answer: FuzzAnswer): string | undefined {
  if (!(header(answer, 'content-type') ?? '').startsWith('application/json')) {
    return `content-type ${header(answer, 'content-type')}`;
  }
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.body.toString('utf8')) as Record<string, unknown>;
  } catch {
    return 'body is not JSON';
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return 'body not an object';
  const extra = Object.keys(body).filter((k) => !TOP_KEYS.has(k) && !oauthField(answer, body, k));
  if (extra.length > 0) return `extra fields ${extra.join()}`;
  const params = body.params;
  if (
    params !== undefined &&
    (params === null || typeof params !== 'object' || Array.isArray(params))
  ) {
    return 'params not an object';
  }
  const code = body.error_code;
  if (typeof code !== 'string' || !ERROR_CODES.includes(code as ErrorCode)) {
    return `error_code ${String(code)}`;
  }
  if (HTTP_STATUS[code as ErrorCode] !== answer.status) return `error_code ${code} for status`;
  if (typeof body.message !== 'string' || body.message === '') return 'message';
  const traceIssue = traceProblem(body.trace);
  if (traceIssue) return traceIssue;
  const cause = body.cause as Record<string, unknown> | null;
  if (cause === null || typeof cause !== 'object') return 'cause';
  if (cause.StatusCode !== answer.status) return `cause.StatusCode ${String(cause.StatusCode)}`;
  if (typeof cause.Message !== 'string' || typeof cause.Code !== 'string') return 'cause fields';
  if (JSON.stringify(cause.Trace) !== JSON.stringify(body.trace)) return 'cause.Trace';
  const t = body.trace as Record<string, string>;
  const echoed = `${t.Version}-${t.TraceID}-${t.ParentID}-${t.Flags}`;
  if (header(answer, 'traceparent') !== echoed) return 'traceparent header';
  if (body.violations !== undefined && !Array.isArray(body.violations)) return 'violations';
  if (answer.status === 401 && !(header(answer, 'www-authenticate') ?? '').startsWith('Bearer')) {
    return 'www-authenticate';
  }
  if (answer.status === 429 && header(answer, 'retry-after') === undefined) return 'retry-after';
  return undefined;
}

/** The first problem with `answer` to a request of `method`, or undefined when it is fine. */
export function answerProblem(method: string, answer: FuzzAnswer): string | undefined {
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.status < 100) return `status ${answer.status}`;
  if (answer.status < 400 || method === 'HEAD') return undefined;
  if (LEAKS.test(answer.body.toString('utf8'))) return 'stack trace or internals in the body';
  return errorShapeProblem(answer);
}

/** The own property names and symbols of the built-in prototypes, to compare before/after. */
export function prototypeSnapshot(): string {
  const protos = [Object.prototype, Array.prototype, Function.prototype, String.prototype];
  return protos
    .map((p) => [...Object.getOwnPropertyNames(p), ...Object.getOwnPropertySymbols(p).map(String)])
    .map((names) => names.sort().join(','))
    .join('|');
}

/** Names of pollution markers that a fresh object now inherits. */
export function pollutionProbe(): string[] {
  const probe: Record<string, unknown> = {};
  const list: unknown[] = [];
  return POLLUTION_MARKERS.filter(
    (m) => probe[m] !== undefined || (list as unknown as Record<string, unknown>)[m] !== undefined,
  );
}

let gc: (() => void) | undefined;

/** Runs a full garbage collection (exposing `gc` on first use). */
export function collectGarbage(): void {
  if (gc === undefined) {
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
  }
  gc();
}

/** Resident set size and heap in use, in MB, after a full collection. */
export function memoryMb(): { rss: number; heap: number } {
  collectGarbage();
  const usage = process.memoryUsage();
  return { rss: usage.rss / 2 ** 20, heap: usage.heapUsed / 2 ** 20 };
}

/** Heap in use in MB after a full collection. */
export function heapMb(): number {
  return memoryMb().heap;
}
