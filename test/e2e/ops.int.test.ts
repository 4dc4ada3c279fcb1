/**
 * The operator and documentation routes over a real socket (SPEC.md §5, §9): OpenAPI 3.1 with the
 * interface version, the reference page, liveness, readiness, and Prometheus metrics on their own
 * listener.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RETRY_CONTRACT, retryContractTable } from '../../src/api/retry-contract.js';
import { createPrescription, expectAppended } from '../support/e2e.js';
import { send } from '../support/http.js';
import { useTestServer } from '../support/server.js';

const API_PATHS = [
  '/ePrescription/create',
  '/ePrescription/verify',
  '/ePrescription/status',
  '/ePrescription/dispense/{id}',
  '/ePrescription/revoke/{id}',
  '/ePrescription/cancel/{id}/event/{eventId}',
  '/ePrescription/lock/{id}',
  '/ePrescription/unlock/{id}',
  '/ePrescription/events',
  '/ePrescription/events/stream',
  '/ePrescription/prescriptions',
  '/ePrescription/me',
  '/ePrescription/catalog',
  '/ePrescription/catalog/names',
  '/REST/v1/OAuth/token',
  '/REST/v1/OAuth/GetTokenInfo',
  '/healthz',
  '/readyz',
  '/log/checkpoint',
  '/log/key',
  '/log/tile/{level}/{index}',
  '/log/tile/entries/{index}',
];

describe('operations and documentation', () => {
  const server = useTestServer();

  it('serves OpenAPI 3.1 with version 0.10.1 and every path of the interface', async () => {
    const answer = await server.request('GET', '/openapi.json');
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^application\/json/);
    const doc = answer.json;
    assert.match(doc.openapi, /^3\.1\./);
    assert.equal(doc.info.version, '0.10.1');
    for (const path of API_PATHS) assert.ok(doc.paths[path]?.post ?? doc.paths[path]?.get, path);
    assert.deepEqual(Object.keys(doc.paths).sort(), [...API_PATHS].sort());
  });

  it('documents the rules a client needs in the OpenAPI document', async () => {
    const doc = (await server.request('GET', '/openapi.json')).json;
    const dispense = doc.paths['/ePrescription/dispense/{id}'].post;
    const force = dispense.parameters.find((p: { name: string }) => p.name === 'force');
    assert.equal(force.in, 'query');
    // A boolean for generated clients; SPEC.md §5's 1/0 and any case are said in its description.
    assert.equal(force.schema.type, 'boolean');
    assert.match(force.description, /`1`, any case/);
    // Shapes are named in components.schemas and referenced.
    const named = (schema: { $ref?: string }) =>
      schema.$ref === undefined
        ? schema
        : doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')];
    const items = named(dispense.requestBody.content['application/json'].schema);
    assert.equal(items.type, 'array');
    assert.equal(items.maxItems, 50);
    assert.equal(named(items.items).additionalProperties, false);
    assert.ok(dispense.security.length > 0);
    // Verify is open to anyone, and takes a bearer token when there is one.
    const verifyOp = doc.paths['/ePrescription/verify'].post;
    assert.deepEqual(verifyOp.security, [{ bearer: [] }, {}]);
    assert.ok(doc.components.securitySchemes.bearer);
  });

  it('publishes the retry contract, row by row, in the OpenAPI description', async () => {
    const doc = (await server.request('GET', '/openapi.json')).json;
    const description: string = doc.info.description;
    assert.match(description, /^## Retries$/m);
    assert.ok(description.includes(retryContractTable()));
    for (const rule of RETRY_CONTRACT)
      assert.ok(description.includes(`| ${rule.label} |`), rule.label);
  });

  it('serves the reference page at /docs', async () => {
    const answer = await server.request('GET', '/docs');
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/html/);
  });

  it('answers /healthz and /readyz with 200', async () => {
    for (const path of ['/healthz', '/readyz']) {
      const answer = await server.request('GET', path);
      assert.equal(answer.status, 200, `${path}: ${answer.text}`);
      assert.equal(typeof answer.json.status, 'string');
    }
  });

  it('counts requests and appended events in /metrics of the metrics listener', async () => {
    const rx = await createPrescription(server);
    await expectAppended(
      server,
      rx.id,
      () =>
        server.request('POST', `/ePrescription/lock/${rx.id}`, { token: server.pharmacist.token }),
      'lock',
    );
    const answer = await send(server.metricsUrl!, 'GET', '');
    assert.equal(answer.status, 200);
    assert.match(answer.headers.get('content-type') ?? '', /^text\/plain/);
    assert.match(answer.text, /^# TYPE erx_http_requests_total counter$/m);
    assert.match(answer.text, /^# TYPE erx_events_appended_total counter$/m);
    assert.match(
      answer.text,
      /^erx_http_requests_total\{method="POST",route="\/ePrescription\/create",status="200"\} [1-9]/m,
    );
    assert.match(answer.text, /^erx_events_appended_total\{type="create"\} [1-9]/m);
    assert.match(answer.text, /^erx_events_appended_total\{type="lock"\} 1$/m);
    // Raw ids never become label values (per route template, not per URL).
    assert.ok(!answer.text.includes(rx.id));
  });
});
