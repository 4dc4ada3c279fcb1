/**
 * Authentication and roles over a real socket (SPEC.md §5 "Roles and authentication", seed §4.3,
 * §5): the token endpoint, the seed's token check, and every mutating route refusing a missing,
 * inactive or malformed token (401) and the wrong role (403) without appending anything.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { assertError, createPrescription, expectationsOn, json } from '../support/e2e.js';
import type { Created } from '../support/e2e.js';
import { MED_A, samplePrescription } from '../support/fixtures.js';
import type { Answer, RequestOptions } from '../support/http.js';
import { useTestServer } from '../support/server.js';
import type { Actor } from '../support/server.js';

const FORM = 'application/x-www-form-urlencoded';

describe('authentication and roles', () => {
  const server = useTestServer();
  const { appends, refuses } = expectationsOn(server);
  let rx: Created;
  let dispenseEventId: string;
  before(async () => {
    rx = await createPrescription(server);
    const event = await appends(
      rx.id,
      () =>
        server.request('POST', `/ePrescription/dispense/${rx.id}`, {
          token: server.pharmacist.token,
          ...json([{ id: MED_A, amount: 1 }]),
        }),
      'partial_dispense',
    );
    dispenseEventId = event.id as string;
  });

  function form(fields: Record<string, string>): { body: string; contentType: string } {
    return { body: new URLSearchParams(fields).toString(), contentType: FORM };
  }

  describe('token endpoint (POST /REST/v1/OAuth/token)', () => {
    it('issues a bearer token for client credentials in the form', async () => {
      const answer = await server.request(
        'POST',
        '/REST/v1/OAuth/token',
        form({
          grant_type: 'client_credentials',
          client_id: server.pharmacist.clientId,
          client_secret: server.pharmacist.secret,
        }),
      );
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(Object.keys(answer.json).sort(), [
        'access_token',
        'expires_in',
        'token_type',
      ]);
      assert.equal(answer.json.token_type, 'Bearer');
      assert.ok(Number.isInteger(answer.json.expires_in) && answer.json.expires_in > 0);
      assert.equal(answer.headers.get('cache-control'), 'no-store');
      // The new token works at once.
      const verified = await server.request('POST', '/ePrescription/verify', {
        body: rx.link,
        contentType: 'text/plain',
        token: answer.json.access_token,
      });
      assert.equal(verified.status, 200, verified.text);
      assert.ok(Array.isArray(verified.json.events));
    });

    it('issues a token for client credentials in HTTP Basic', async () => {
      const basic = Buffer.from(`${server.doctor.clientId}:${server.doctor.secret}`).toString(
        'base64',
      );
      const answer = await server.request('POST', '/REST/v1/OAuth/token', {
        ...form({ grant_type: 'client_credentials' }),
        authorization: `Basic ${basic}`,
      });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.json.token_type, 'Bearer');
    });

    it('refuses bad client credentials with 401 and a bad grant with 400', async () => {
      const unauthenticated: Record<string, string>[] = [
        {
          grant_type: 'client_credentials',
          client_id: server.doctor.clientId,
          client_secret: 'wrong',
        },
        { grant_type: 'client_credentials', client_id: 'nobody', client_secret: 'whatever' },
        { grant_type: 'client_credentials' },
      ];
      for (const fields of unauthenticated) {
        assertError(
          await server.request('POST', '/REST/v1/OAuth/token', form(fields)),
          401,
          'unauthorized',
        );
      }
      const badGrants: Record<string, string>[] = [
        {
          grant_type: 'password',
          client_id: server.doctor.clientId,
          client_secret: server.doctor.secret,
        },
        { client_id: server.doctor.clientId, client_secret: server.doctor.secret },
      ];
      for (const fields of badGrants) {
        assertError(
          await server.request('POST', '/REST/v1/OAuth/token', form(fields)),
          400,
          'bad_request',
        );
      }
    });

    it('refuses a JSON body with 415', async () => {
      const answer = await server.request(
        'POST',
        '/REST/v1/OAuth/token',
        json({ grant_type: 'client_credentials', client_id: server.doctor.clientId }),
      );
      assertError(answer, 415, 'unsupported_media_type');
    });
  });

  describe('token check (POST /REST/v1/OAuth/GetTokenInfo, seed §4.3)', () => {
    function check(
      token: string,
      client: Actor = server.pharmacist,
      secret = client.secret,
    ): Promise<Answer> {
      return server.request(
        'POST',
        '/REST/v1/OAuth/GetTokenInfo',
        form({ token, client_id: client.clientId, client_secret: secret }),
      );
    }

    it('answers the seed §2.6 fields for an active token', async () => {
      const answer = await check(server.doctor.token);
      assert.equal(answer.status, 200, answer.text);
      const info = answer.json;
      assert.equal(info.active, true);
      assert.equal(typeof info.description, 'string');
      assert.ok(Number.isInteger(info.exp));
      assert.ok(Number.isInteger(info.expires_in) && info.expires_in > 0);
      assert.match(info.expires_on, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
      assert.equal(Date.parse(info.expires_on), info.exp * 1000);
      assert.equal(info.name, server.doctor.name);
      assert.equal(info.client_id, server.doctor.clientId);
      assert.equal(info.scope, 'prescriber');
      assert.equal(info.sub, server.doctor.sub);
    });

    it('answers 200 {"active":false} for an unknown token, also with its acs: prefix', async () => {
      for (const token of ['unknown-token', `acs:${server.doctor.token}x`]) {
        const answer = await check(token);
        assert.equal(answer.status, 200, answer.text);
        assert.deepEqual(answer.json, { active: false });
      }
    });

    it('refuses bad client credentials with 401 and a missing field with 400', async () => {
      assertError(
        await check(server.doctor.token, server.pharmacist, 'wrong'),
        401,
        'unauthorized',
      );
      assertError(
        await server.request(
          'POST',
          '/REST/v1/OAuth/GetTokenInfo',
          form({ client_id: server.pharmacist.clientId, client_secret: server.pharmacist.secret }),
        ),
        400,
        'bad_request',
      );
    });
  });

  describe('bearer tokens on the prescription routes', () => {
    /** Every mutating route on the shared prescription, as `[name, path, body]`. */
    function routes(): [string, string, RequestOptions][] {
      return [
        ['create', '/ePrescription/create?output-format=data', json(samplePrescription())],
        ['dispense', `/ePrescription/dispense/${rx.id}`, { contentType: 'application/json' }],
        ['revoke', `/ePrescription/revoke/${rx.id}`, {}],
        ['cancel', `/ePrescription/cancel/${rx.id}/event/${dispenseEventId}`, {}],
        ['lock', `/ePrescription/lock/${rx.id}`, {}],
        ['unlock', `/ePrescription/unlock/${rx.id}`, {}],
      ];
    }

    const badHeaders: [string, string | undefined][] = [
      ['no Authorization header', undefined],
      ['an unknown token', 'Bearer acs:0123456789abcdef0123456789abcdef'],
      ['a token without the acs:/oauth: prefix', 'PLACEHOLDER'],
      ['another scheme', 'Basic ZG9jdG9yMTp0ZXN0'],
      ['an empty bearer', 'Bearer '],
      ['an unknown prefix', 'Bearer xyz:PLACEHOLDER'],
    ];
    for (const [what, header] of badHeaders) {
      it(`refuses ${what} with 401 and WWW-Authenticate on every mutating route`, async () => {
        for (const [name, path, body] of routes()) {
          const authorization = header?.replace('PLACEHOLDER', server.pharmacist.token);
          const answer = await refuses(
            rx.id,
            () =>
              server.request(
                'POST',
                path,
                authorization === undefined ? body : { ...body, authorization },
              ),
            401,
            'unauthorized',
          );
          assert.match(answer.headers.get('www-authenticate') ?? '', /^Bearer/, name);
        }
      });
    }

    it('takes Bearer oauth:<token> like Bearer acs:<token>', async () => {
      const other = await createPrescription(server);
      await appends(
        other.id,
        () =>
          server.request('POST', `/ePrescription/lock/${other.id}`, {
            authorization: `Bearer oauth:${server.pharmacist.token}`,
          }),
        'lock',
      );
      await appends(
        other.id,
        () =>
          server.request('POST', `/ePrescription/unlock/${other.id}`, {
            authorization: `bearer  acs:${server.pharmacist.token}`,
          }),
        'unlock',
      );
    });

    it('takes a plain Bearer <token> with Token-Type HIN_ACS, HIN_JWT or OAUTH, and refuses it without', async () => {
      const other = await createPrescription(server);
      const plain = (type?: string) => ({
        authorization: `Bearer ${server.pharmacist.token}`,
        ...(type === undefined ? {} : { headers: { 'token-type': type } }),
      });
      await appends(
        other.id,
        () => server.request('POST', `/ePrescription/lock/${other.id}`, plain('HIN_ACS')),
        'lock',
      );
      await appends(
        other.id,
        () => server.request('POST', `/ePrescription/unlock/${other.id}`, plain('OAUTH')),
        'unlock',
      );
      const full = await server.request('POST', '/ePrescription/verify', {
        ...plain('HIN_JWT'),
        body: other.link,
        contentType: 'text/plain',
      });
      assert.equal(full.status, 200, full.text);
      assert.ok('events' in full.json, 'the variant with transactions');
      for (const refused of [plain(), plain('SAML')]) {
        const answer = await server.request('POST', `/ePrescription/lock/${other.id}`, refused);
        assert.equal(answer.status, 401, answer.text);
      }
    });

    it('refuses the wrong role with 403 on create, dispense and revoke', async () => {
      const doc = samplePrescription();
      assertError(
        await server.request('POST', '/ePrescription/create?output-format=data', {
          ...json(doc),
          token: server.pharmacist.token,
        }),
        403,
        'forbidden',
        'wrong_role',
      );
      assert.equal(
        (await server.runtime.store.readChain(doc.Id as string))?.state.prescription,
        undefined,
      );
      const cases: [string, Actor, RequestOptions][] = [
        [`/ePrescription/dispense/${rx.id}`, server.doctor, { contentType: 'application/json' }],
        [
          `/ePrescription/dispense/${rx.id}?force=true`,
          server.doctor2,
          json([{ id: MED_A, amount: 1 }]),
        ],
        [`/ePrescription/revoke/${rx.id}`, server.pharmacist, {}],
      ];
      for (const [path, actor, body] of cases) {
        await refuses(
          rx.id,
          () => server.request('POST', path, { ...body, token: actor.token }),
          403,
          'forbidden',
          'wrong_role',
        );
      }
    });
  });
});
