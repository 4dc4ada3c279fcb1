/**
 * Issue 4: the prescription service with an external token service (`ERX_AUTH_URL`), speaking the
 * seed's GetTokenInfo (here: another erx's embedded token service) or RFC 7662 introspection (a
 * small server in this file). The token service down ⇒ 503 and nothing recorded (SPEC.md §5).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { openRuntime } from '../../src/server/runtime.js';
import type { Runtime } from '../../src/server/runtime.js';
import { samplePrescription, startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

async function listenRuntime(
  authUrl: string,
  extra: Record<string, string> = {},
): Promise<{ runtime: Runtime; url: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'erx-ext-'));
  const runtime = await openRuntime(
    loadConfig({
      ERX_DATA_DIR: dir,
      ERX_AUTH_URL: authUrl,
      ERX_AUTH_CLIENT_ID: 'erx-service',
      ERX_AUTH_CLIENT_SECRET: 'service-secret-0123456789',
      ERX_RATE_LIMIT_SUBJECT: '0',
      ERX_RATE_LIMIT_ANON: '0',
      ...extra,
    }),
  );
  await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    runtime,
    url: `http://127.0.0.1:${(runtime.app.server.address() as AddressInfo).port}`,
    dir,
  };
}

/** The fields of an answer these tests read (an event or an error). */
interface Answer {
  actor?: string;
  actor_name?: string;
  error_code?: string;
  cause?: { StatusCode: number };
}

async function post(
  url: string,
  token: string,
  body?: string,
): Promise<{ status: number; json: Answer }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { authorization: `Bearer acs:${token}`, 'content-type': 'application/json' },
    body,
  });
  return { status: response.status, json: (await response.json()) as Answer };
}

describe('GetTokenInfo of another erx (seed §4.3)', () => {
  let issuer: TestServer;
  let service: { runtime: Runtime; url: string; dir: string };
  before(async () => {
    issuer = await startTestServer();
    await issuer.runtime.tokens!.addClient({
      clientId: 'erx-service',
      secret: 'service-secret-0123456789',
      role: 'pharmacist',
      name: 'erx prescription service',
      sub: 'erx|service',
    });
    service = await listenRuntime(`${issuer.url}/REST/v1/OAuth/GetTokenInfo`);
  });
  after(async () => {
    await service.runtime.close();
    rmSync(service.dir, { recursive: true, force: true });
    await issuer.close();
  });

  test('tokens of the external service create and dispense, as their own actors', async () => {
    const doc = samplePrescription();
    const created = await post(
      `${service.url}/ePrescription/create?output-format=data`,
      issuer.doctor.token,
      JSON.stringify(doc),
    );
    assert.equal(created.status, 200);
    const dispensed = await post(
      `${service.url}/ePrescription/dispense/${doc.Id}`,
      issuer.pharmacist.token,
    );
    assert.equal(dispensed.status, 200);
    assert.equal(dispensed.json.actor, issuer.pharmacist.sub);
    assert.equal(dispensed.json.actor_name, issuer.pharmacist.name);
    const refused = await post(`${service.url}/ePrescription/dispense/${doc.Id}`, 'not-a-token');
    assert.equal(refused.status, 401);
    assert.equal(refused.json.error_code, 'unauthorized');
  });

  test('the embedded token endpoints are not served when the token service is external', async () => {
    const response = await fetch(`${service.url}/REST/v1/OAuth/token`, { method: 'POST' });
    assert.equal(response.status, 404);
  });
});

describe('RFC 7662 introspection, and the token service going down', () => {
  let introspection: Server;
  let requests = 0;
  let service: { runtime: Runtime; url: string; dir: string };
  const known: Record<string, { sub: string; scope: string; username: string }> = {
    'doc-token': { sub: 'HIN|doc7662', scope: 'prescriber', username: 'Dr. RFC' },
    'ph-token': { sub: 'HIN|ph7662', scope: 'pharmacist', username: 'Apotheke RFC' },
    'ph-token-2': { sub: 'HIN|ph7662', scope: 'pharmacist', username: 'Apotheke RFC' },
  };
  before(async () => {
    introspection = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        requests += 1;
        const expected = `Basic ${Buffer.from('erx-service:service-secret-0123456789').toString('base64')}`;
        if (req.headers.authorization !== expected) {
          res.writeHead(401).end();
          return;
        }
        const token = new URLSearchParams(body).get('token') ?? '';
        const entry = known[token];
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify(
            entry
              ? {
                  active: true,
                  ...entry,
                  client_id: entry.sub,
                  exp: Math.floor(Date.now() / 1000) + 600,
                }
              : { active: false },
          ),
        );
      });
    });
    await new Promise<void>((resolve) => introspection.listen(0, '127.0.0.1', resolve));
    service = await listenRuntime(
      `http://127.0.0.1:${(introspection.address() as AddressInfo).port}/introspect`,
    );
  });
  after(async () => {
    await service.runtime.close();
    rmSync(service.dir, { recursive: true, force: true });
    introspection.close();
  });

  test('introspected tokens work; down ⇒ 503 in the error shape and nothing recorded', async () => {
    const doc = samplePrescription();
    assert.equal(
      (
        await post(
          `${service.url}/ePrescription/create?output-format=data`,
          'doc-token',
          JSON.stringify(doc),
        )
      ).status,
      200,
    );
    const ok = await post(
      `${service.url}/ePrescription/dispense/${doc.Id}`,
      'ph-token',
      JSON.stringify([{ id: '7680543201015', amount: 1 }]),
    );
    assert.equal(ok.status, 200);
    assert.equal(ok.json.actor, 'HIN|ph7662');
    assert.ok(requests >= 2);

    const before = (await service.runtime.store.getEvents(doc.Id as string)).length;
    introspection.closeAllConnections();
    await new Promise<void>((resolve) => introspection.close(() => resolve()));
    // A token not checked before (a cached one may still be honoured for at most 60 s).
    const down = await post(
      `${service.url}/ePrescription/dispense/${doc.Id}?force=true`,
      'ph-token-2',
    );
    assert.equal(down.status, 503);
    assert.equal(down.json.error_code, 'service_unavailable');
    assert.equal(down.json.cause?.StatusCode, 503);
    assert.equal((await service.runtime.store.getEvents(doc.Id as string)).length, before);
  });
});
