/**
 * The OpenAPI document is one an integrator can generate a client from (SPEC.md §5, §8): it
 * passes a maintained OpenAPI parser's validation; every shape is named in `components.schemas`
 * and referenced; every call describes its error statuses in the seed §7 shape (the exact 403 as
 * an example, `Retry-After` on 429 and 503); the dispense, lock and unlock bodies are optional. A
 * TypeScript client generated from it with `openapi-typescript` type-checks a small integration
 * (create, verify, dispense, a forced one with its reason) and refuses a wrong one.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compileErrors, validate } from '@readme/openapi-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { createPrescription } from '../support/e2e.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

const SCHEMAS = '#/components/schemas/';
const ERROR_BODY = `${SCHEMAS}ErrorBody`;

/** The error statuses each call documents (SPEC.md §5, §8). */
const BEARER = [400, 401, 403, 413, 415, 429, 500, 503];
const EXPECTED_ERRORS: Record<string, number[]> = {
  '/ePrescription/create': [...BEARER, 409],
  '/ePrescription/verify': [400, 401, 404, 413, 415, 429, 500, 503],
  '/ePrescription/status': [400, 401, 404, 413, 415, 429, 500, 503],
  '/ePrescription/dispense/{id}': [...BEARER, 404, 409, 423],
  '/ePrescription/revoke/{id}': [...BEARER, 404, 409],
  '/ePrescription/cancel/{id}/event/{eventId}': [...BEARER, 404, 409, 423],
  '/ePrescription/lock/{id}': [...BEARER, 404, 409],
  '/ePrescription/unlock/{id}': [...BEARER, 404, 409],
  '/ePrescription/events': [400, 401, 413, 415, 429, 500, 503],
  '/ePrescription/events/stream': [400, 401, 413, 415, 429, 500, 503],
  '/ePrescription/prescriptions': BEARER,
  '/ePrescription/me': [401, 413, 415, 429, 500, 503],
  '/ePrescription/catalog': [400, 401, 413, 415, 429, 500, 503],
  '/ePrescription/catalog/names': [400, 401, 413, 415, 429, 500, 503],
  '/REST/v1/OAuth/token': [400, 401, 413, 415, 429, 500, 503],
  '/REST/v1/OAuth/GetTokenInfo': [400, 401, 413, 415, 429, 500, 503],
  '/healthz': [500],
  '/readyz': [500, 503],
  '/log/checkpoint': [401, 404, 413, 415, 429, 500, 503],
  '/log/key': [401, 413, 415, 429, 500, 503],
  '/log/tile/{level}/{index}': [400, 401, 404, 413, 415, 429, 500, 503],
  '/log/tile/entries/{index}': [400, 401, 404, 413, 415, 429, 500, 503],
};

/** Every operation of the document with its path. */
function operations(doc: Json): { path: string; op: Json }[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([path, item]) =>
    ['get', 'post'].filter((m) => item[m]).map((m) => ({ path, op: item[m] })),
  );
}

/** The media objects (request bodies and answers) of an operation. */
function mediaOf(op: Json): { where: string; media: Json }[] {
  const bodies = Object.entries(op.requestBody?.content ?? {}).map(([type, media]) => ({
    where: `body ${type}`,
    media,
  }));
  const answers = Object.entries(op.responses as Record<string, Json>).flatMap(([status, r]) =>
    Object.entries(r.content ?? {}).map(([type, media]) => ({ where: `${status} ${type}`, media })),
  );
  return [...bodies, ...answers];
}

/** Paths of the subschemas of `schema` that are object shapes written inline. */
function inlineShapes(schema: unknown, at: string, out: string[] = []): string[] {
  if (Array.isArray(schema)) schema.forEach((s, i) => inlineShapes(s, `${at}/${i}`, out));
  else if (schema !== null && typeof schema === 'object') {
    for (const [key, value] of Object.entries(schema)) {
      if (key === 'enum' || key === 'const' || key === 'examples') continue;
      if (key === 'properties') {
        for (const [name, sub] of Object.entries(value as object)) {
          if ((sub as Json).properties !== undefined) out.push(`${at}/properties/${name}`);
          inlineShapes(sub, `${at}/properties/${name}`, out);
        }
      } else if (key === 'items' && (value as Json).properties !== undefined) {
        out.push(`${at}/items`);
      } else inlineShapes(value, `${at}/${key}`, out);
    }
  }
  return out;
}

/** A trace-free copy of an error body, to compare bodies made under different traces. */
function withoutTrace(body: Json): Json {
  return { ...body, trace: '-', cause: { ...body.cause, Trace: '-' } };
}

/** Type-checks `files` (name → source) in `dir` with the generated client; answers the errors. */
function typeCheck(dir: string, files: Record<string, string>): { line: number; text: string }[] {
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  const program = ts.createProgram({
    rootNames: Object.keys(files).map((name) => join(dir, name)),
    options: {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'],
      types: [],
      skipLibCheck: true,
    },
  });
  return ts.getPreEmitDiagnostics(program).map((d) => ({
    line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line : -1,
    text: `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
  }));
}

/** An integration as an integrator would write it against the generated `paths`. */
const SAMPLE = `
import type { components, paths } from './erx-api';

type Create = paths['/ePrescription/create']['post'];
type Verify = paths['/ePrescription/verify']['post'];
type Dispense = paths['/ePrescription/dispense/{id}']['post'];
type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : never;

async function post<T>(url: string, token: string | undefined, body?: string, type?: string): Promise<T> {
  const headers: Record<string, string> = {};
  if (token !== undefined) headers.authorization = 'Bearer acs:' + token;
  if (type !== undefined) headers['content-type'] = type;
  const response = await fetch(url, { method: 'POST', headers, body });
  if (!response.ok) throw new Error(refusal((await response.json()) as JsonOf<Dispense['responses'][403]>));
  return (await response.json()) as T;
}

function refusal(body: components['schemas']['ErrorBody']): string {
  return body.error_code + ' ' + body.cause.Code + ' ' + body.trace.TraceID + ' ' + (body.violations?.length ?? 0);
}

export function create(base: string, token: string, doc: components['schemas']['Prescription']) {
  return post<JsonOf<Create['responses'][200]>>(base + '/ePrescription/create?output-format=data', token, JSON.stringify(doc), 'application/json');
}

export function verify(base: string, link: components['schemas']['VerifyBody'], token?: string) {
  return post<JsonOf<Verify['responses'][200]>>(base + '/ePrescription/verify', token, link, 'text/plain');
}

export function dispense(
  base: string,
  token: string,
  path: Dispense['parameters']['path'],
  items?: NonNullable<Dispense['requestBody']>['content']['application/json'],
  query: NonNullable<Dispense['parameters']['query']> = {},
) {
  const search = new URLSearchParams();
  if (query.force !== undefined) search.set('force', String(query.force));
  if (query.reason !== undefined) search.set('reason', query.reason);
  const url = base + '/ePrescription/dispense/' + encodeURIComponent(path.id) + '?' + search.toString();
  return post<JsonOf<Dispense['responses'][200]>>(url, token, items && JSON.stringify(items), 'application/json');
}

export async function integration(base: string, doctor: string, pharmacist: string): Promise<string> {
  const created = await create(base, doctor, {
    Patient: { FName: 'Anna', LName: 'Muster', BDt: '1968-05-21' },
    Medicaments: [{ Id: '7680543201015', IdType: 2 }],
    MedType: 3,
    Id: 'a1b2',
    Auth: '7601001234567',
    Dt: '2025-03-14T09:30:00+01:00',
  });
  const id = created.prescription_id;
  const partial = await dispense(base, pharmacist, { id }, [
    { id: '7680543201015', amount: 1, substitute: '7680000000001', substitute_id_type: 2 },
  ]);
  const type: components['schemas']['EventType'] = partial.type;
  await dispense(base, pharmacist, { id });
  const forced = await dispense(base, pharmacist, { id }, undefined, { force: true, reason: 'Notfall' });
  const answer = await verify(base, created.SignedPrescriptionData, pharmacist);
  if ('events' in answer) {
    const log = answer.events.map((e) => e.type + (e.hash ?? '') + (e.dispenses?.[0]?.amount ?? 0));
    const left = answer.medicaments.map((m: components['schemas']['MedicamentStatus']) => m.id + m.remaining + m.substitution_allowed);
    return type + forced.cancellable + log.join() + answer.tampering_detection_result.logs_check_passed + (answer.locked_at ?? '') + left.join() + answer.expires_at + answer.expired + (answer.dispensed_by ?? '');
  }
  return answer.issued_by + answer.valid;
}
`;

/** The same calls written wrongly: the generated types must refuse each. */
const WRONG = `
import type { components, paths } from './erx-api';

type Dispense = paths['/ePrescription/dispense/{id}']['post'];
export const amountAsText: NonNullable<Dispense['requestBody']>['content']['application/json'] = [{ id: 'x', amount: '1' }];
export const forceNotText: NonNullable<Dispense['parameters']['query']> = { force: 1 };
export const reasonAsNumber: NonNullable<Dispense['parameters']['query']> = { force: true, reason: 1 };
export const noId: Dispense['parameters']['path'] = {};
export const noSuchField = (v: components['schemas']['VerifyFull']) => v.event_log;
`;

describe('OpenAPI document for client generation', () => {
  let server: TestServer;
  let doc: Json;
  before(async () => {
    server = await startTestServer();
    doc = (await server.request('GET', '/openapi.json')).json;
  });
  after(async () => {
    await server.close();
  });

  it('passes a maintained OpenAPI parser’s validation, version 0.10.1', async () => {
    const result = await validate(structuredClone(doc));
    assert.ok(result.valid, result.valid ? '' : compileErrors(result));
    assert.equal(doc.info.version, '0.10.1');
    assert.match(doc.openapi, /^3\.1\./);
  });

  it('names every shape in components.schemas and refers to it', () => {
    const schemas = doc.components.schemas as Record<string, Json>;
    for (const name of [
      'DispenseItem',
      'DispenseBody',
      'EventView',
      'PartialDispensation',
      'TamperingDetectionResult',
      'VerifyShort',
      'VerifyFull',
      'VerifyResult',
      'MedicamentStatus',
      'CreateResult',
      'Prescription',
      'Chmed23aPrescription',
      'ReasonBody',
      'ErrorBody',
      'Trace',
      'TokenResult',
      'TokenInfo',
    ]) {
      assert.ok(schemas[name], `components.schemas.${name}`);
    }
    for (const { path, op } of operations(doc)) {
      for (const { where, media } of mediaOf(op)) {
        const ref = String(media.schema?.$ref);
        assert.ok(ref.startsWith(SCHEMAS), `${path} ${where}: inline schema`);
        assert.ok(schemas[ref.slice(SCHEMAS.length)], `${path} ${where}: ${ref} unknown`);
      }
    }
    // Nested shapes are references too; the documents stay as their schemas have them
    // (chmed16a/schema.ts, chmed23a/profile.ts).
    const inline = Object.entries(schemas)
      .filter(([name]) => name !== 'Prescription' && name !== 'Chmed23aPrescription')
      .flatMap(([name, schema]) => inlineShapes(schema, name));
    assert.deepEqual(inline, []);
  });

  it('describes every error status of every call in the seed §7 shape', () => {
    assert.deepEqual(
      Object.keys(doc.paths).sort(),
      Object.keys(EXPECTED_ERRORS).sort(),
      'a call without its expected errors listed here',
    );
    for (const { path, op } of operations(doc)) {
      const errors = Object.keys(op.responses)
        .map(Number)
        .filter((status) => status >= 400);
      assert.deepEqual(errors.sort(), [...(EXPECTED_ERRORS[path] ?? [])].sort(), path);
      for (const status of errors) {
        const answer = op.responses[status];
        // The token endpoints' 400 and 401 add RFC 6749's fields to the same body.
        const oauth = path.startsWith('/REST/v1/OAuth/') && (status === 400 || status === 401);
        assert.equal(
          answer.content['application/json'].schema.$ref,
          oauth ? `${SCHEMAS}TokenErrorBody` : ERROR_BODY,
          `${path} ${status}`,
        );
        assert.ok(answer.description.length > 0);
        const retryAfter = answer.headers?.['Retry-After'];
        if (status === 429 || status === 503) assert.equal(retryAfter?.schema.type, 'integer');
        else assert.equal(retryAfter, undefined);
      }
    }
  });

  it('shows the seed §7 403 as the dispense example, as erx answers it', async () => {
    const example =
      doc.paths['/ePrescription/dispense/{id}'].post.responses[403].content['application/json']
        .examples.already_dispensed.value;
    const rx = await createPrescription(server);
    const dispense = () =>
      server.request('POST', `/ePrescription/dispense/${rx.id}`, {
        token: server.pharmacist.token,
        contentType: 'application/json',
      });
    assert.equal((await dispense()).status, 200);
    const refused = await dispense();
    assert.equal(refused.status, 403);
    assert.deepEqual(withoutTrace(refused.json), withoutTrace(example));
    assert.equal(example.error_code, 'forbidden');
    assert.equal(example.cause.StatusCode, 403);
    assert.equal(example.cause.Code, 'unknown_error');
  });

  it('marks the dispense, lock and unlock bodies optional and the other bodies required', () => {
    const bodies = operations(doc)
      .filter(({ op }) => op.requestBody !== undefined)
      .map(({ path, op }) => [path, op.requestBody.required]);
    assert.deepEqual(Object.fromEntries(bodies), {
      '/ePrescription/create': true,
      '/ePrescription/verify': true,
      '/ePrescription/status': true,
      '/ePrescription/dispense/{id}': false,
      '/ePrescription/lock/{id}': false,
      '/ePrescription/unlock/{id}': false,
      '/REST/v1/OAuth/token': true,
      '/REST/v1/OAuth/GetTokenInfo': true,
    });
    // The reason goes in the query or as `{"reason": …}` (SPEC.md §5).
    for (const path of ['/ePrescription/lock/{id}', '/ePrescription/unlock/{id}']) {
      const body = doc.paths[path].post.requestBody.content['application/json'];
      assert.equal(body.schema.$ref, `${SCHEMAS}ReasonBody`, path);
    }
  });

  it('documents force and reason on the dispense query (SPEC.md §10 "Force")', () => {
    const query = (doc.paths['/ePrescription/dispense/{id}'].post.parameters as Json[])
      .filter((p) => p.in === 'query')
      .map((p) => [p.name, p.required, p.schema.type]);
    assert.deepEqual(query.sort(), [
      ['force', false, 'boolean'],
      ['reason', false, 'string'],
    ]);
  });

  it('names every operation with a verb, once', () => {
    const ids = operations(doc).map(({ op }) => op.operationId as unknown);
    assert.ok(
      ids.every((id) => typeof id === 'string' && /^[a-z]+[A-Z][A-Za-z]+$/.test(id)),
      `${ids}`,
    );
    assert.equal(new Set(ids).size, ids.length);
    assert.equal(doc.paths['/ePrescription/verify'].post.operationId, 'verifyPrescription');
    assert.equal(doc.paths['/ePrescription/create'].post.operationId, 'createPrescription');
  });

  it('asks for the token on verify, optionally, so a configured client sends it', () => {
    assert.deepEqual(doc.paths['/ePrescription/verify'].post.security, [{ bearer: [] }, {}]);
  });

  it('has no wildcard path parameter, and the tile paths take a level and an index', () => {
    assert.deepEqual(
      Object.keys(doc.paths).filter((path) => path.includes('*')),
      [],
    );
    const level = doc.paths['/log/tile/{level}/{index}'].get.parameters.find(
      (p: Json) => p.name === 'level',
    );
    assert.equal(level.schema.type, 'integer');
  });

  it('types query numbers and booleans as such, and declares the headers of the retry contract', () => {
    const params = (path: string, method = 'get'): Json[] => doc.paths[path][method].parameters;
    const schemaOf = (path: string, name: string, method = 'get'): Json =>
      params(path, method).find((p) => p.name === name)?.schema;
    assert.equal(schemaOf('/ePrescription/events', 'limit').type, 'integer');
    assert.equal(schemaOf('/ePrescription/prescriptions', 'limit').type, 'integer');
    assert.equal(schemaOf('/ePrescription/catalog', 'limit').type, 'integer');
    assert.equal(schemaOf('/ePrescription/create', 'size', 'post').type, 'integer');
    assert.equal(schemaOf('/ePrescription/catalog/names', 'gtin').type, 'array');
    for (const { path, op } of operations(doc)) {
      const names = (op.parameters as Json[]).map((p) => p.name);
      assert.ok(names.includes('traceparent'), path);
      const mutating =
        op.security?.some((s: Json) => 'bearer' in s) && path !== '/ePrescription/verify';
      if (mutating && op === doc.paths[path].post)
        assert.ok(names.includes('Idempotency-Key'), path);
      for (const answer of Object.values(op.responses as Record<string, Json>)) {
        assert.ok(answer.headers?.traceparent, `${path}: answers say their trace`);
      }
    }
    const retry = doc.paths['/ePrescription/dispense/{id}'].post.responses[503].headers;
    assert.ok(retry['Retry-After']);
    const created = doc.paths['/ePrescription/create'].post.responses[200].headers;
    assert.ok(created['Erx-Receipt']);
  });

  it('tells the verify variants apart and names event_data per event kind', () => {
    const schemas = doc.components.schemas;
    assert.deepEqual(schemas.VerifyResult.oneOf, [
      { $ref: `${SCHEMAS}VerifyFull` },
      { $ref: `${SCHEMAS}VerifyShort` },
    ]);
    assert.equal(schemas.VerifyShort.additionalProperties, false);
    assert.equal(schemas.EventAnswer, undefined, 'one event schema: EventView, with its receipt');
    assert.ok(schemas.EventView.properties.receipt);
    const data = schemas.EventView.properties.event_data.anyOf.map((s: Json) => s.$ref);
    assert.deepEqual(data, [
      `${SCHEMAS}EmptyEventData`,
      `${SCHEMAS}CancelEventData`,
      `${SCHEMAS}LockEventData`,
      `${SCHEMAS}UnlockEventData`,
      `${SCHEMAS}DispenseEventData`,
    ]);
    assert.deepEqual(schemas.CancelEventData.required, ['EventId']);
    assert.ok(schemas.LockEventData.properties.expires_at);
    assert.ok(schemas.DispenseEventData.properties.overrides);
  });

  it('names the document’s nested objects, open as the server is', () => {
    const schemas = doc.components.schemas;
    for (const name of ['Patient', 'HcPerson', 'HcOrg', 'Medicament', 'Pos']) {
      assert.equal(schemas[name].additionalProperties, true, name);
    }
    assert.equal(schemas.Prescription.additionalProperties, false);
    assert.equal(schemas.Prescription.properties.Patient.$ref, `${SCHEMAS}Patient`);
    assert.equal(schemas.Medicament.properties.Pos.items.$ref, `${SCHEMAS}Pos`);
  });

  it('answers the token endpoint’s refusals with RFC 6749 error fields too', async () => {
    for (const path of ['/REST/v1/OAuth/token', '/REST/v1/OAuth/GetTokenInfo']) {
      for (const status of ['400', '401']) {
        const media = doc.paths[path].post.responses[status].content['application/json'];
        assert.equal(media.schema.$ref, `${SCHEMAS}TokenErrorBody`, `${path} ${status}`);
      }
    }
    const form = (body: string) => ({ body, contentType: 'application/x-www-form-urlencoded' });
    const badGrant = await server.request(
      'POST',
      '/REST/v1/OAuth/token',
      form('grant_type=password&client_id=x&client_secret=y'),
    );
    assert.equal(badGrant.status, 400);
    assert.equal(badGrant.json.error, 'unsupported_grant_type');
    assert.equal(badGrant.json.error_description, badGrant.json.message);
    assert.equal(badGrant.json.error_code, 'bad_request');
    const badClient = await server.request(
      'POST',
      '/REST/v1/OAuth/token',
      form('grant_type=client_credentials&client_id=nobody&client_secret=wrong'),
    );
    assert.equal(badClient.status, 401);
    assert.equal(badClient.json.error, 'invalid_client');
    const noGrant = await server.request('POST', '/REST/v1/OAuth/token', form('client_id=x'));
    assert.equal(noGrant.status, 400);
    assert.equal(noGrant.json.error, 'invalid_request');
  });

  it('generates a TypeScript client that types an integration and refuses a wrong one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erx-client-'));
    try {
      const client = astToString(await openapiTS(structuredClone(doc)));
      writeFileSync(join(dir, 'erx-api.ts'), client);
      assert.deepEqual(typeCheck(dir, { 'integration.ts': SAMPLE }), []);
      const refused = typeCheck(dir, { 'wrong.ts': WRONG });
      const wrongLines = WRONG.split('\n').flatMap((text, line) =>
        text.startsWith('export const') ? [line] : [],
      );
      assert.equal(wrongLines.length, 5);
      for (const line of wrongLines) {
        assert.ok(
          refused.some((d) => d.line === line),
          `line ${line} of the wrong integration was accepted: ${refused.map((d) => d.text).join('\n')}`,
        );
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
