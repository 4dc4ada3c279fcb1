/**
 * `erx/client`: a typed client of erx's HTTP interface. Its types are generated from erx's OpenAPI
 * document at build time (`./api-types.ts`); every call follows the published retry contract
 * (`./retry.ts`), a mutating call keeping one `Idempotency-Key` across its retries; the event
 * stream is read message by message and resumed with `Last-Event-ID` (`./event-stream.ts`).
 * Depends on `fetch` and `eventsource-parser` only, so it runs in Node 20 and in browsers.
 */
import type { components, operations } from './api-types.js';
import { streamEvents } from './event-stream.js';
import type { StreamOptions } from './event-stream.js';
import { REAL_TIMING, attemptFetch, retrying } from './retry.js';
import type { RetryTiming } from './retry.js';

export type { components, operations, paths } from './api-types.js';
export type { StreamOptions } from './event-stream.js';
export type { RetryTiming } from './retry.js';

type Schemas = components['schemas'];
export type Prescription = Schemas['Prescription'];
export type CreateResult = Schemas['CreateResult'];
export type VerifyResult = Schemas['VerifyResult'];
export type VerifyFull = Schemas['VerifyFull'];
export type StatusResult = Schemas['StatusResult'];
export type DispenseItem = Schemas['DispenseItem'];
export type EventView = Schemas['EventView'];
export type FeedPage = Schemas['FeedPage'];
export type EventStreamMessage = Schemas['EventStreamMessage'];
export type PrescriptionList = Schemas['PrescriptionList'];
export type ErrorBody = Schemas['ErrorBody'];
type ListQuery = NonNullable<operations['listPrescriptions']['parameters']['query']>;
type FeedQuery = NonNullable<operations['listEvents']['parameters']['query']>;

/** How a client reaches erx. */
export interface ErxClientOptions {
  /** erx's address, e.g. `https://erx.example.ch`. */
  readonly baseUrl: string | URL;
  /**
   * The access token (without `acs:`), or a function answering the current one; sent as
   * `Authorization: Bearer acs:<token>`. Without one, verify answers the short variant.
   */
  readonly token?: string | (() => string | undefined | Promise<string | undefined>);
  /** The `fetch` to use (default: the global one). */
  readonly fetch?: typeof fetch;
  /** How long one attempt waits for its answer (default 30 s). */
  readonly answerTimeoutMs?: number;
  /** What the retries wait with (tests pass their own). */
  readonly timing?: RetryTiming;
}

/** A mutating call's options: the key that names it (default: a new one per call). */
export interface MutationOptions {
  readonly idempotencyKey?: string;
}

/** An answer erx gave in its error shape (seed §7), or no answer after the last retry. */
export class ErxClientError extends Error {
  constructor(
    message: string,
    /** The HTTP status; undefined when no answer came. */
    readonly status: number | undefined,
    /** The error body, when the answer had one. */
    readonly body: ErrorBody | undefined,
    readonly attempts: number,
    /** The key a retry by hand must send again (a new one could record the call twice). */
    readonly idempotencyKey: string | undefined,
  ) {
    super(message);
    this.name = 'ErxClientError';
  }
}

interface Call {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly query?: Record<string, string | number | boolean | undefined>;
  readonly body?: unknown;
  /** A mutating call: it carries an `Idempotency-Key`. */
  readonly mutation?: MutationOptions;
}

/** The client: one method per operation of erx's interface. */
export type ErxClient = ReturnType<typeof createErxClient>;

/** A client of erx at `options.baseUrl`. */
export function createErxClient(options: ErxClientOptions) {
  const fetchFn = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timing = options.timing ?? REAL_TIMING;
  const timeoutMs = options.answerTimeoutMs ?? 30_000;
  const token = async (): Promise<string | undefined> =>
    typeof options.token === 'function' ? options.token() : options.token;
  const authorization = async (): Promise<Record<string, string>> => {
    const current = await token();
    return current === undefined ? {} : { authorization: `Bearer acs:${current}` };
  };

  async function call<T>(request: Call): Promise<T> {
    const url = new URL(request.path, options.baseUrl);
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const key = request.mutation && (request.mutation.idempotencyKey ?? crypto.randomUUID());
    const headers: Record<string, string> = {
      ...(await authorization()),
      ...(key === undefined ? {} : { 'idempotency-key': key }),
      ...(request.body === undefined ? {} : { 'content-type': 'application/json' }),
    };
    const body = request.body === undefined ? undefined : JSON.stringify(request.body);
    const init: RequestInit = { method: request.method, headers, body };
    const { last, attempts } = await retrying(
      () => attemptFetch(fetchFn, url, init, timeoutMs),
      timing,
    );
    if ('failure' in last) {
      const why = last.failure instanceof Error ? last.failure.message : String(last.failure);
      throw new ErxClientError(`no answer from erx: ${why}`, undefined, undefined, attempts, key);
    }
    const text = new TextDecoder().decode(last.body);
    if (last.response.ok) return JSON.parse(text) as T;
    let error: ErrorBody | undefined;
    try {
      error = JSON.parse(text) as ErrorBody;
    } catch {
      // not the error shape (a proxy's answer): the status says what there is
    }
    const message = `${last.response.status} ${error?.error_code ?? ''}: ${error?.message ?? text}`;
    throw new ErxClientError(message, last.response.status, error, attempts, key);
  }

  const id = (value: string): string => encodeURIComponent(value);

  return {
    /** Creates a prescription; answers its link and id (`output-format=data`). */
    createPrescription: (document: Prescription | string, o: MutationOptions = {}) =>
      call<CreateResult>({
        method: 'POST',
        path: '/ePrescription/create',
        query: { 'output-format': 'data' },
        body: document,
        mutation: o,
      }),
    /** Verifies a link; with a pharmacist's or the issuer's token, the variant with transactions. */
    verifyPrescription: (link: string) =>
      call<VerifyResult>({ method: 'POST', path: '/ePrescription/verify', body: link }),
    /** What a patient may read about a link (no token needed). */
    readPrescriptionStatus: (link: string) =>
      call<StatusResult>({ method: 'POST', path: '/ePrescription/status', body: link }),
    /** Dispenses: all that remains without items, else the items (SPEC.md §5). */
    dispensePrescription: (
      prescriptionId: string,
      items?: readonly DispenseItem[],
      o: MutationOptions & { readonly force?: boolean; readonly reason?: string } = {},
    ) =>
      call<EventView>({
        method: 'POST',
        path: `/ePrescription/dispense/${id(prescriptionId)}`,
        query: { force: o.force, reason: o.reason },
        body: items,
        mutation: o,
      }),
    /** Revokes a prescription (its issuer only; final). */
    revokePrescription: (prescriptionId: string, o: MutationOptions = {}) =>
      call<EventView>({
        method: 'POST',
        path: `/ePrescription/revoke/${id(prescriptionId)}`,
        mutation: o,
      }),
    /** Cancels an event of a prescription (its actor only). */
    cancelEvent: (prescriptionId: string, eventId: string, o: MutationOptions = {}) =>
      call<EventView>({
        method: 'POST',
        path: `/ePrescription/cancel/${id(prescriptionId)}/event/${id(eventId)}`,
        mutation: o,
      }),
    /** Locks a prescription for the caller, with the reason recorded. */
    lockPrescription: (prescriptionId: string, o: MutationOptions & { reason?: string } = {}) =>
      call<EventView>({
        method: 'POST',
        path: `/ePrescription/lock/${id(prescriptionId)}`,
        body: o.reason === undefined ? undefined : { reason: o.reason },
        mutation: o,
      }),
    /** Releases the caller's lock, with the reason recorded. */
    unlockPrescription: (prescriptionId: string, o: MutationOptions & { reason?: string } = {}) =>
      call<EventView>({
        method: 'POST',
        path: `/ePrescription/unlock/${id(prescriptionId)}`,
        body: o.reason === undefined ? undefined : { reason: o.reason },
        mutation: o,
      }),
    /** One page of the event feed after `after`. */
    listEvents: (query: FeedQuery = {}) =>
      call<FeedPage>({ method: 'GET', path: '/ePrescription/events', query: { ...query } }),
    /** The prescriptions the calling prescriber issued, newest first. */
    listPrescriptions: (query: ListQuery = {}) =>
      call<PrescriptionList>({
        method: 'GET',
        path: '/ePrescription/prescriptions',
        query: { ...query },
      }),
    /**
     * The live event stream, message by message, resumed with `Last-Event-ID` after a lost
     * connection; ends when `signal` aborts or the loop is left.
     */
    streamEvents: (o: StreamOptions = {}): AsyncGenerator<EventStreamMessage> =>
      streamEvents({ baseUrl: options.baseUrl, fetch: fetchFn, timing, authorization }, o),
  };
}
