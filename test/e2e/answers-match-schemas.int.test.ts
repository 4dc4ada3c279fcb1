/**
 * Every answer is exactly what its route's schema says (SPEC.md §5, §8). Fastify's serialiser
 * drops a field that a response schema lacks, so a field missing from `src/api` would silently
 * vanish for clients. Here the answers are sent unfiltered (plain JSON instead of the schema
 * serialiser) and each is validated against its route's schema with every object closed: a field
 * the code sends but the schema omits, a missing required field or a wrong type fails the test.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import type { ValidateFunction } from 'ajv';
import type { FastifyInstance } from 'fastify';
import { EventView, ref, sharedSchemas } from '../../src/api/index.js';
import { loadConfig } from '../../src/config/index.js';
import { openRuntime } from '../../src/server/runtime.js';
import type { Runtime } from '../../src/server/runtime.js';
import { roomyPrescription } from '../support/fixtures.js';

/** `schema` with every object that lists its properties closed to other ones. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    // `properties` maps names to schemas; `enum`, `const` and `examples` hold data.
    if (key === 'properties') {
      out[key] = Object.fromEntries(
        Object.entries(value as object).map(([k, v]) => [k, closed(v)]),
      );
    } else if (key === 'enum' || key === 'const' || key === 'examples') out[key] = value;
    else out[key] = closed(value);
  }
  if ('properties' in out && out.additionalProperties === undefined) {
    out.additionalProperties = false;
  }
  return out;
}

/** An Ajv that knows every named shape of `src/api`, closed. */
function strictAjv(): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false });
  for (const schema of sharedSchemas()) ajv.addSchema(closed(schema) as object);
  return ajv;
}

interface Checked {
  route: string;
  errors: string[];
}

/**
 * Replaces the app's response serialiser: each answer is checked against the closed schema of its
 * route and status, recorded, and sent as plain JSON (nothing dropped).
 */
function checkEveryAnswer(app: FastifyInstance, ajv: Ajv, seen: Checked[]): void {
  app.setSerializerCompiler(({ schema, method, url, httpStatus }) => {
    const validate: ValidateFunction = ajv.compile(closed(schema) as object);
    const route = `${method} ${url} ${httpStatus}`;
    return (data: unknown) => {
      const ok = validate(data);
      const errors = ok
        ? []
        : (validate.errors ?? []).map(
            (e) => `${e.instancePath} ${e.message} ${JSON.stringify(e.params)}`,
          );
      seen.push({ route, errors });
      return JSON.stringify(data);
    };
  });
}

/** The items of a list answer, read loosely. */
type JsonList = Record<string, unknown>[];

interface Reply {
  status: number;
  json: Record<string, unknown>;
}

describe('answers match their schemas', () => {
  const seen: Checked[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'erx-schemas-'));
  let runtime: Runtime;
  const tokens: Record<'doctor' | 'pharmacist' | 'pharmacist2', string> = {
    doctor: '',
    pharmacist: '',
    pharmacist2: '',
  };

  async function call(
    url: string,
    options: { token?: string; body?: string; type?: string; method?: 'GET' | 'POST' } = {},
  ): Promise<Reply> {
    const headers: Record<string, string> = {};
    if (options.token !== undefined) headers.authorization = `Bearer acs:${options.token}`;
    if (options.type !== undefined) headers['content-type'] = options.type;
    const res = await runtime.app.inject({
      method: options.method ?? 'POST',
      url,
      headers,
      ...(options.body === undefined ? {} : { payload: options.body }),
    });
    return { status: res.statusCode, json: res.json() };
  }

  const json = (value: unknown) => ({ body: JSON.stringify(value), type: 'application/json' });
  const form = (fields: Record<string, string>) => ({
    body: new URLSearchParams(fields).toString(),
    type: 'application/x-www-form-urlencoded',
  });

  before(async () => {
    const config = loadConfig({
      ERX_DATA_DIR: dataDir,
      PORT: '0',
      ERX_PRESCRIPTION_URL: 'http://erx.test/rx/',
      ERX_RATE_LIMIT_SUBJECT: '0',
      ERX_RATE_LIMIT_ANON: '0',
    });
    runtime = await openRuntime(config);
    checkEveryAnswer(runtime.app, strictAjv(), seen);
    const clients = [
      ['doctor', 'prescriber', 'Dr. med. Lukas Beispiel'],
      ['pharmacist', 'pharmacist', 'Apotheke am Platz'],
      ['pharmacist2', 'pharmacist', 'Bahnhof Apotheke'],
    ] as const;
    for (const [clientId, role, name] of clients) {
      const secret = `secret-${clientId}-0123456789`;
      await runtime.tokens!.addClient({
        clientId,
        secret,
        role,
        name,
        sub: `HIN|${clientId}`,
        description: `${role} for tests`,
      });
      const answer = await call(
        '/REST/v1/OAuth/token',
        form({ grant_type: 'client_credentials', client_id: clientId, client_secret: secret }),
      );
      assert.equal(answer.status, 200);
      tokens[clientId] = answer.json.access_token as string;
      const info = await call(
        '/REST/v1/OAuth/GetTokenInfo',
        form({ token: tokens[clientId], client_id: clientId, client_secret: secret }),
      );
      assert.equal(info.json.active, true);
    }
  });

  after(async () => {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('checks every answer of every route and status against its closed schema', async () => {
    // Room for every dispensation below, a substitute included: this suite is about the shapes of
    // the answers, not the prescription rules.
    const doc = roomyPrescription();
    const [first, second] = (doc.Medicaments as { Id: string }[]).map((m) => m.Id);
    const create = async () => {
      const answer = await call('/ePrescription/create?output-format=data', {
        token: tokens.doctor,
        ...json({ ...doc, Id: randomUUID() }),
      });
      assert.equal(answer.status, 200, JSON.stringify(answer.json));
      return {
        id: answer.json.prescription_id as string,
        link: answer.json.SignedPrescriptionData as string,
      };
    };
    const verify = (link: string, token?: string) =>
      call('/ePrescription/verify', { body: link, type: 'text/plain', token });
    const statuses = new Map<string, number>();
    const expect = async (name: string, reply: Promise<Reply>, status: number) => {
      const answer = await reply;
      assert.equal(answer.status, status, `${name}: ${JSON.stringify(answer.json)}`);
      statuses.set(name, status);
      return answer;
    };

    const rx = await create();
    const pharmacist = tokens.pharmacist;
    const at = (action: string, query = '') => `/ePrescription/${action}/${rx.id}${query}`;
    await expect('verify short', verify(rx.link), 200);
    const status = (link: string) =>
      call('/ePrescription/status', { body: link, type: 'text/plain' });
    const genuine = await expect('status', status(rx.link), 200);
    assert.equal((genuine.json.medicaments as unknown[]).length, 2);
    const forged = `${rx.link.slice(0, -1)}${rx.link.endsWith('0') ? '1' : '0'}`;
    await expect('status forged', status(forged), 200);
    await expect(
      'partial with substitute',
      call(at('dispense'), {
        token: pharmacist,
        ...json([
          { id: first, amount: 1 },
          { id: second, amount: 1, substitute: '7680000000001', substitute_id_type: 2 },
        ]),
      }),
      200,
    );
    const partial = await verify(rx.link, pharmacist);
    const events = partial.json.events as { id: string; type: string }[];
    const dispenseEvent = events.find((e) => e.type === 'partial_dispense');
    assert.ok(dispenseEvent);
    await expect(
      'cancel',
      call(`/ePrescription/cancel/${rx.id}/event/${dispenseEvent.id}`, { token: pharmacist }),
      200,
    );
    await expect('lock', call(at('lock', '?reason=Beratung'), { token: pharmacist }), 200);
    const locked = await expect('verify locked', verify(rx.link, pharmacist), 200);
    assert.equal(typeof locked.json.locked_at, 'string');
    assert.equal(typeof locked.json.locked_by, 'string');
    const list = (token: string) => call('/ePrescription/prescriptions', { method: 'GET', token });
    const listedLocked = await expect('list locked', list(tokens.doctor), 200);
    assert.equal(typeof (listedLocked.json.prescriptions as JsonList)[0]!.locked_by, 'string');
    await expect('list as pharmacist', list(pharmacist), 403);
    await expect(
      'locked by another',
      call(at('dispense'), { token: tokens.pharmacist2, type: 'application/json' }),
      423,
    );
    await expect('unlock', call(at('unlock', '?reason=fertig'), { token: pharmacist }), 200);
    await expect(
      'full',
      call(at('dispense'), { token: pharmacist, type: 'application/json' }),
      200,
    );
    await expect(
      'already dispensed',
      call(at('dispense'), { token: pharmacist, type: 'application/json' }),
      403,
    );
    await expect(
      'forced',
      call(at('dispense', '?force=true'), {
        token: pharmacist,
        ...json([{ id: first, amount: 1 }]),
      }),
      200,
    );
    const full = await expect('verify full', verify(rx.link, pharmacist), 200);
    // The fields of SPEC.md §10 passed through the schema check, not only the seed's.
    assert.equal(typeof full.json.dispensed_at, 'string');
    assert.equal((full.json.medicaments as unknown[]).length, 2);
    const listedFull = await expect('list dispensed', list(tokens.doctor), 200);
    assert.equal(typeof (listedFull.json.prescriptions as JsonList)[0]!.dispensed_at, 'string');
    await expect('revoke', call(at('revoke'), { token: tokens.doctor }), 200);
    await expect('revoked again', call(at('revoke'), { token: tokens.doctor }), 409);
    await expect('no token', call(at('lock')), 401);
    await expect('unknown', call('/ePrescription/lock/no-such-id', { token: pharmacist }), 404);
    await expect(
      'invalid document',
      call('/ePrescription/create?output-format=data', {
        token: tokens.doctor,
        ...json({ ...doc, Id: randomUUID(), Auth: 'x', Medicaments: [] }),
      }),
      400,
    );
    await expect(
      'bad item',
      call(at('dispense'), { token: pharmacist, ...json([{ id: first, amount: 0 }]) }),
      400,
    );
    await expect(
      'text to dispense',
      call(at('dispense'), { token: pharmacist, body: 'x', type: 'text/plain' }),
      415,
    );
    await expect(
      'too large',
      call(at('dispense'), {
        token: pharmacist,
        body: `"${'x'.repeat(70_000)}"`,
        type: 'application/json',
      }),
      413,
    );
    await expect(
      'inactive token',
      call(
        '/REST/v1/OAuth/GetTokenInfo',
        form({ token: 'nope', client_id: 'doctor', client_secret: 'secret-doctor-0123456789' }),
      ),
      200,
    );
    await expect(
      'bad client',
      call(
        '/REST/v1/OAuth/token',
        form({ grant_type: 'client_credentials', client_id: 'doctor', client_secret: 'wrong' }),
      ),
      401,
    );
    // The signed-in client, a prescriber with every field of a profile and a pharmacist without.
    await runtime.tokens!.setClientProfile('doctor', {
      firstName: 'Lukas',
      lastName: 'Beispiel',
      gln: '7601234567890',
      zsr: 'A123456',
      practiceName: 'Praxis am See',
      street: 'Seestrasse 12',
      zip: '8002',
      city: 'Zürich',
      phone: '+41 44 123 45 67',
    });
    const me = (token?: string) => call('/ePrescription/me', { method: 'GET', token });
    const profiled = await expect('me with a profile', me(tokens.doctor), 200);
    const profile = profiled.json.profile as { practice: { phone: string } };
    assert.equal(profile.practice.phone, '+41 44 123 45 67');
    await expect('me without a profile', me(pharmacist), 200);
    await expect('me without a token', me(), 401);
    await expect('healthz', call('/healthz', { method: 'GET' }), 200);
    await expect('readyz', call('/readyz', { method: 'GET' }), 200);

    const failures = seen.filter((c) => c.errors.length > 0);
    assert.deepEqual(failures, [], 'answers that their schemas do not describe exactly');
    // The checking serialiser saw every route and status exercised above, so none was missed.
    const routes = new Set(seen.map((c) => c.route));
    const expected = [
      'POST /REST/v1/OAuth/token 200',
      'POST /REST/v1/OAuth/token 401',
      'POST /REST/v1/OAuth/GetTokenInfo 200',
      'POST /ePrescription/create 200',
      'POST /ePrescription/create 400',
      'POST /ePrescription/verify 200',
      'POST /ePrescription/status 200',
      'POST /ePrescription/dispense/:id 200',
      'POST /ePrescription/dispense/:id 400',
      'POST /ePrescription/dispense/:id 403',
      'POST /ePrescription/dispense/:id 413',
      'POST /ePrescription/dispense/:id 415',
      'POST /ePrescription/dispense/:id 423',
      'POST /ePrescription/cancel/:id/event/:eventId 200',
      'POST /ePrescription/lock/:id 200',
      'POST /ePrescription/lock/:id 401',
      'POST /ePrescription/lock/:id 404',
      'POST /ePrescription/unlock/:id 200',
      'POST /ePrescription/revoke/:id 200',
      'POST /ePrescription/revoke/:id 409',
      'GET /ePrescription/prescriptions 200',
      'GET /ePrescription/prescriptions 403',
      'GET /ePrescription/me 200',
      'GET /ePrescription/me 401',
      'GET /healthz 200',
      'GET /readyz 200',
    ];
    assert.deepEqual(
      expected.filter((route) => !routes.has(route)),
      [],
      'routes whose answers did not pass through their schema',
    );
    assert.ok(seen.length >= statuses.size);
  });

  it('fails an answer with a field its schema lacks, or without a required one', () => {
    const validate = strictAjv().compile(closed(ref(EventView)) as object);
    const event = {
      id: 'e',
      type: 'lock',
      reference: 'p',
      event_data: { reason: 'any field: event_data is open' },
      timestamp: '2025-01-01T00:00:00.000000000Z',
      actor: 'HIN|a',
      actor_name: 'A',
      cancellable: false,
      hash: 'a'.repeat(64),
    };
    assert.equal(validate(event), true, JSON.stringify(validate.errors));
    assert.equal(validate({ ...event, extra: 1 }), false);
    assert.equal(validate({ ...event, actor: undefined }), false);
  });
});
