/**
 * The prescription service with an external token service (`ERX_AUTH_URL`), speaking the
 * seed's GetTokenInfo (here: another erx's embedded token service) or RFC 7662 introspection (a
 * small server in this file). The token service down ⇒ 503 and nothing recorded (SPEC.md §5).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { MED_A, samplePrescription } from '../support/fixtures.js';
import type { Answer } from '../support/http.js';
import { listenServer, startTestServer } from '../support/server.js';
import type { ListeningServer, TestServer } from '../support/server.js';

/** erx checking its tokens at the external service `authUrl`. */
function listenWithTokenService(authUrl: string): Promise<ListeningServer> {
  return listenServer({
    env: {
      ERX_AUTH_URL: authUrl,
      ERX_AUTH_CLIENT_ID: 'erx-service',
      ERX_AUTH_CLIENT_SECRET: 'service-secret-0123456789',
    },
  });
}

/** A POST to `path` of `server` with `token` and a JSON `body`. */
function post(
  server: ListeningServer,
  path: string,
  token: string,
  body?: string,
): Promise<Answer> {
  return server.request('POST', path, { token, body, contentType: 'application/json' });
}

describe('GetTokenInfo of another erx (seed §4.3)', () => {
  let issuer: TestServer;
  let service: ListeningServer;
  before(async () => {
    issuer = await startTestServer();
    await issuer.runtime.tokens!.addClient({
      clientId: 'erx-service',
      secret: 'service-secret-0123456789',
      role: 'pharmacist',
      name: 'erx prescription service',
      sub: 'erx|service',
    });
    service = await listenWithTokenService(`${issuer.url}/REST/v1/OAuth/GetTokenInfo`);
  });
  after(async () => {
    await service.close();
    await issuer.close();
  });

  test('tokens of the external service create and dispense, as their own actors', async () => {
    const doc = samplePrescription();
    const created = await post(
      service,
      `/ePrescription/create?output-format=data`,
      issuer.doctor.token,
      JSON.stringify(doc),
    );
    assert.equal(created.status, 200);
    const dispensed = await post(
      service,
      `/ePrescription/dispense/${doc.Id}`,
      issuer.pharmacist.token,
    );
    assert.equal(dispensed.status, 200);
    assert.equal(dispensed.json.actor, issuer.pharmacist.sub);
    assert.equal(dispensed.json.actor_name, issuer.pharmacist.name);
    const refused = await post(service, `/ePrescription/dispense/${doc.Id}`, 'not-a-token');
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
  let service: ListeningServer;
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
    service = await listenWithTokenService(
      `http://127.0.0.1:${(introspection.address() as AddressInfo).port}/introspect`,
    );
  });
  after(async () => {
    await service.close();
    introspection.close();
  });

  test('introspected tokens work; down ⇒ 503 in the error shape and nothing recorded', async () => {
    const doc = samplePrescription();
    assert.equal(
      (
        await post(
          service,
          `/ePrescription/create?output-format=data`,
          'doc-token',
          JSON.stringify(doc),
        )
      ).status,
      200,
    );
    const ok = await post(
      service,
      `/ePrescription/dispense/${doc.Id}`,
      'ph-token',
      JSON.stringify([{ id: MED_A, amount: 1 }]),
    );
    assert.equal(ok.status, 200);
    assert.equal(ok.json.actor, 'HIN|ph7662');
    assert.ok(requests >= 2);

    const before = ((await service.runtime.store.readChain(doc.Id as string))?.state.events ?? [])
      .length;
    introspection.closeAllConnections();
    await new Promise<void>((resolve) => introspection.close(() => resolve()));
    // A token not checked before (a cached one may still be honoured for at most 60 s).
    const down = await post(service, `/ePrescription/dispense/${doc.Id}?force=true`, 'ph-token-2');
    assert.equal(down.status, 503);
    assert.equal(down.json.error_code, 'service_unavailable');
    assert.equal(down.json.cause?.StatusCode, 503);
    assert.equal(
      ((await service.runtime.store.readChain(doc.Id as string))?.state.events ?? []).length,
      before,
    );
  });
});
