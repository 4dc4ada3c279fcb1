/**
 * Assertions and small calls shared by the end-to-end suite (`test/e2e`): create a prescription,
 * count its events, check the seed §7 error shape, and "refused, and nothing appended".
 */
import assert from 'node:assert/strict';
import { samplePrescription } from './fixtures.js';
import type { Answer, RequestOptions } from './http.js';
import type { Actor, TestServer } from './server.js';

/** A prescription created through the API. */
export interface Created {
  id: string;
  link: string;
}

/** A parsed JSON answer, read loosely by assertions. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type JsonObject = Record<string, any>;

const HEX = (n: number): RegExp => new RegExp(`^[0-9a-f]{${n}}$`);

/** Options for a JSON body. */
export function json(value: unknown, extra: RequestOptions = {}): RequestOptions {
  return { ...extra, body: JSON.stringify(value), contentType: 'application/json' };
}

/** Creates `doc` (default: the sample with a fresh Id) as `actor` and answers its link and id. */
export async function createPrescription(
  server: TestServer,
  doc: Record<string, unknown> = samplePrescription(),
  actor: Actor = server.doctor,
): Promise<Created> {
  const answer = await server.request(
    'POST',
    '/ePrescription/create?output-format=data',
    json(doc, { token: actor.token }),
  );
  assert.equal(answer.status, 200, answer.text);
  return { id: answer.json.prescription_id as string, link: answer.json.SignedPrescriptionData };
}

/** The number of events stored for prescription `id`. */
export async function eventCount(server: TestServer, id: string): Promise<number> {
  return ((await server.runtime.store.readChain(id))?.state.events ?? []).length;
}

/** Asserts a seed §7 `trace` object: version 00, 32 and 16 hex digits, two-digit flags. */
export function assertTrace(trace: unknown): void {
  const t = trace as Record<string, unknown>;
  assert.deepEqual(Object.keys(t).sort(), ['Flags', 'ParentID', 'TraceID', 'Version']);
  for (const value of Object.values(t)) assert.equal(typeof value, 'string');
  assert.equal(t.Version, '00');
  assert.match(t.TraceID as string, HEX(32));
  assert.match(t.ParentID as string, HEX(16));
  assert.match(t.Flags as string, HEX(2));
}

/**
 * Asserts that `answer` is an error of `status` in the seed §7 shape with `error_code` `code`
 * (and `cause.Code` `causeCode` when given), its trace echoed in the `traceparent` header.
 */
export function assertError(
  answer: Answer,
  status: number,
  code: string,
  causeCode?: string,
): void {
  assert.equal(answer.status, status, answer.text);
  assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
  const body = answer.json as JsonObject;
  assert.ok(body, `no JSON body: ${answer.text}`);
  assert.equal(body.error_code, code);
  assert.equal(typeof body.message, 'string');
  assert.ok(body.message.length > 0);
  assertTrace(body.trace);
  assert.equal(typeof body.cause, 'object');
  assert.equal(body.cause.StatusCode, status);
  assert.equal(typeof body.cause.Message, 'string');
  assert.equal(typeof body.cause.Code, 'string');
  if (causeCode !== undefined) assert.equal(body.cause.Code, causeCode);
  assert.deepEqual(body.cause.Trace, body.trace);
  const t = body.trace as Record<string, string>;
  assert.equal(
    answer.headers.get('traceparent'),
    `${t.Version}-${t.TraceID}-${t.ParentID}-${t.Flags}`,
  );
  if (status === 401) assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/);
}

/**
 * Makes a call that must be refused: asserts the error (see {@link assertError}) and that
 * prescription `id` has exactly as many events afterwards as before (SPEC.md §5: a refused call
 * appends none).
 */
export async function expectRefused(
  server: TestServer,
  id: string,
  call: () => Promise<Answer>,
  status: number,
  code: string,
  causeCode?: string,
): Promise<Answer> {
  const before = await eventCount(server, id);
  const answer = await call();
  assertError(answer, status, code, causeCode);
  assert.equal(await eventCount(server, id), before, 'a refused call appended an event');
  return answer;
}

/**
 * Makes a call that must be accepted: 200, the appended event in the seed §2.5 shape, exactly one
 * new event on prescription `id`.
 */
export async function expectAppended(
  server: TestServer,
  id: string,
  call: () => Promise<Answer>,
  type: string,
): Promise<JsonObject> {
  const before = await eventCount(server, id);
  const answer = await call();
  assert.equal(answer.status, 200, answer.text);
  assert.equal(answer.json.type, type);
  assert.equal(answer.json.reference, id);
  assert.equal(await eventCount(server, id), before + 1, 'an accepted call appends one event');
  return answer.json;
}

/**
 * {@link expectAppended} and {@link expectRefused} on `server`, as `appends(id, call, type)` and
 * `refuses(id, call, status, code, causeCode?)`, and `revoked()`: a prescription its prescriber
 * created and revoked.
 */
export function expectationsOn(server: TestServer) {
  const appends = (id: string, call: Call, type: string): Promise<JsonObject> =>
    expectAppended(server, id, call, type);
  return {
    appends,
    refuses: (id: string, call: Call, status: number, code: string, causeCode?: string) =>
      expectRefused(server, id, call, status, code, causeCode),
    revoked: async (): Promise<Created> => {
      const rx = await createPrescription(server);
      await appends(rx.id, calls(server).revoke(rx.id, server.doctor), 'revoke');
      return rx;
    },
  };
}

/** Verifies `link`, with `token` when given (the variant with transactions); asserts 200. */
export async function verify(
  server: TestServer,
  link: string,
  token?: string,
): Promise<JsonObject> {
  const options: RequestOptions = { body: link, contentType: 'text/plain' };
  if (token !== undefined) options.token = token;
  const answer = await server.request('POST', '/ePrescription/verify', options);
  assert.equal(answer.status, 200, answer.text);
  return answer.json;
}

/** A call on the prescription API, made when invoked (for {@link expectAppended} and friends). */
export type Call = () => Promise<Answer>;

/** A dispense call's request, with its query and acting pharmacist (default: the first one). */
export type DispenseOptions = RequestOptions & { query?: string; actor?: Actor };

/** A dispense of the `items` (sent as JSON), with `query`. */
export function withItems(items: unknown, query = ''): DispenseOptions {
  return { ...json(items), query };
}

/** Builders of the mutating calls of SPEC.md §5 on `server`; no actor means no token. */
export function calls(server: TestServer) {
  const post =
    (path: string, actor?: Actor, options: RequestOptions = {}): Call =>
    () =>
      server.request('POST', path, actor ? { token: actor.token, ...options } : options);
  const dispense = (id: string, options: DispenseOptions = {}): Call => {
    const { query = '', actor = server.pharmacist, ...rest } = options;
    return post(`/ePrescription/dispense/${id}${query}`, actor, rest);
  };
  return {
    post,
    /** A dispense of prescription `id` (see {@link DispenseOptions}). */
    dispense,
    /** A full dispensation by the first pharmacist as the seed's curl sends it. */
    full: (id: string, query = ''): Call =>
      dispense(id, { query, contentType: 'application/json' }),
    lock: (id: string, actor?: Actor, query = ''): Call =>
      post(`/ePrescription/lock/${id}${query}`, actor),
    unlock: (id: string, actor?: Actor, query = ''): Call =>
      post(`/ePrescription/unlock/${id}${query}`, actor),
    revoke: (id: string, actor?: Actor): Call => post(`/ePrescription/revoke/${id}`, actor),
    cancel: (id: string, eventId: string, actor?: Actor): Call =>
      post(`/ePrescription/cancel/${id}/event/${eventId}`, actor),
    /** A full dispensation as the seed sends it: `Content-Type: application/json`, no body. */
    dispenseFull: (id: string, actor: Actor, query = ''): Call =>
      dispense(id, { actor, query, contentType: 'application/json' }),
    dispenseItems: (id: string, actor: Actor, items: unknown, query = ''): Call =>
      dispense(id, { actor, ...withItems(items, query) }),
  };
}
