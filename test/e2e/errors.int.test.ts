/**
 * The error shape over a real socket (SPEC.md §8, seed §7): unknown routes, 413, 415 and bad JSON
 * answer in the seed's shape with a W3C trace, echoed as `traceparent`, and append nothing.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { assertError, createPrescription, expectationsOn, json } from '../support/e2e.js';
import type { Created } from '../support/e2e.js';
import { MED_A, samplePrescription } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const INCOMING = `00-${TRACE_ID}-${PARENT_ID}-01`;
const TRACEPARENT = /^00-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$/;

describe('errors', () => {
  const server = useTestServer();
  const { refuses } = expectationsOn(server);
  let rx: Created;
  before(async () => {
    rx = await createPrescription(server);
  });

  const dispensePath = (): string => `/ePrescription/dispense/${rx.id}`;

  describe('unknown routes', () => {
    for (const [method, path] of [
      ['GET', '/nope'],
      ['POST', '/ePrescription/nope'],
      ['GET', '/ePrescription/verify'],
      ['DELETE', '/ePrescription/revoke/x'],
      ['POST', '/ePrescription/dispense'],
    ] as const) {
      it(`answers ${method} ${path} with 404 in the error shape`, async () => {
        assertError(await server.request(method, path), 404, 'not_found');
      });
    }

    for (const [contentType, body] of [
      ['application/x-www-form-urlencoded', 'token=abc&client_id=x'],
      ['text/plain', 'CHMED16A1abc'],
      ['application/json', '{"not json'],
      ['application/xml', '<a/>'],
    ] as const) {
      it(`answers a body of ${contentType} on an unknown route with 404, not 415 or 400`, async () => {
        for (const path of ['/nope', '/ePrescription/nope', '/REST/v1/OAuth/nope']) {
          const answer = await server.request('POST', path, {
            body,
            contentType,
            headers: { traceparent: INCOMING },
          });
          assertError(answer, 404, 'not_found');
          assert.equal(answer.json.trace.TraceID, TRACE_ID);
        }
      });
    }
  });

  describe('URLs the router refuses', () => {
    for (const [name, path] of [
      ['an id longer than any route allows', `/ePrescription/dispense/${'a'.repeat(101)}`],
      [
        'an event id longer than any route allows',
        `/ePrescription/cancel/x/event/${'e'.repeat(150)}`,
      ],
      ['a broken percent-encoding', '/ePrescription/dispense/%E0%A4%A'],
      ['a lone percent sign', '/%'],
    ] as const) {
      it(`answers ${name} with 400 in the error shape, keeping the trace id`, async () => {
        const answer = await server.request('POST', path, {
          token: server.pharmacist.token,
          headers: { traceparent: INCOMING },
        });
        assertError(answer, 400, 'bad_request');
        assert.equal(answer.json.trace.TraceID, TRACE_ID);
        // The refused URL is not echoed back.
        assert.ok(!answer.text.includes('aaaa') && !answer.text.includes('%E0'), answer.text);
      });
    }
  });

  describe('413: bodies over 64 KiB', () => {
    const big = 'x'.repeat(64 * 1024 + 1);

    it('refuses a large verify body, raw and JSON', async () => {
      for (const contentType of ['text/plain', 'application/json']) {
        assertError(
          await server.request('POST', '/ePrescription/verify', { body: big, contentType }),
          413,
          'payload_too_large',
        );
      }
    });

    it('refuses a large create body and stores nothing', async () => {
      const doc = samplePrescription({ Rmk: big });
      assertError(
        await server.request('POST', '/ePrescription/create?output-format=data', {
          ...json(doc),
          token: server.doctor.token,
        }),
        413,
        'payload_too_large',
      );
      assert.equal(
        (await server.runtime.store.readChain(doc.Id as string))?.state.prescription,
        undefined,
      );
    });

    it('refuses a large dispense body and appends nothing', async () => {
      const items = Array.from({ length: 2000 }, () => ({ id: MED_A, amount: 1 }));
      await refuses(
        rx.id,
        () =>
          server.request('POST', dispensePath(), {
            ...json(items),
            token: server.pharmacist.token,
          }),
        413,
        'payload_too_large',
      );
    });

    it('takes a body just under the limit to the route (here a 400 for a non-link)', async () => {
      assertError(
        await server.request('POST', '/ePrescription/verify', {
          body: 'x'.repeat(64 * 1024 - 1),
          contentType: 'text/plain',
        }),
        400,
        'bad_request',
      );
    });
  });

  describe('415: unsupported Content-Type', () => {
    it('refuses application/xml on verify, create and dispense', async () => {
      const body = '<link/>';
      assertError(
        await server.request('POST', '/ePrescription/verify', {
          body,
          contentType: 'application/xml',
        }),
        415,
        'unsupported_media_type',
      );
      const doc = samplePrescription();
      assertError(
        await server.request('POST', '/ePrescription/create?output-format=data', {
          body,
          contentType: 'application/xml',
          token: server.doctor.token,
        }),
        415,
        'unsupported_media_type',
      );
      assert.equal(
        (await server.runtime.store.readChain(doc.Id as string))?.state.prescription,
        undefined,
      );
      await refuses(
        rx.id,
        () =>
          server.request('POST', dispensePath(), {
            body,
            contentType: 'application/xml',
            token: server.pharmacist.token,
          }),
        415,
        'unsupported_media_type',
      );
    });

    it('refuses text/plain and form bodies on dispense', async () => {
      for (const contentType of ['text/plain', 'application/x-www-form-urlencoded']) {
        await refuses(
          rx.id,
          () =>
            server.request('POST', dispensePath(), {
              body: 'id=1&amount=1',
              contentType,
              token: server.pharmacist.token,
            }),
          415,
          'unsupported_media_type',
        );
      }
    });
  });

  describe('400: malformed JSON', () => {
    for (const [name, body] of [
      ['truncated JSON', '[{"id": "7680543201015", "amount": 1'],
      ['trailing garbage', '[{"id":"7680543201015","amount":1}] x'],
      ['a __proto__ key', '[{"id":"7680543201015","amount":1,"__proto__":{"x":1}}]'],
      ['nesting deeper than 32 levels', `${'['.repeat(40)}${']'.repeat(40)}`],
    ]) {
      it(`refuses ${name} on dispense and appends nothing`, async () => {
        await refuses(
          rx.id,
          () =>
            server.request('POST', dispensePath(), {
              body,
              contentType: 'application/json',
              token: server.pharmacist.token,
            }),
          400,
          'bad_request',
        );
      });
    }

    it('refuses malformed JSON on create', async () => {
      assertError(
        await server.request('POST', '/ePrescription/create?output-format=data', {
          body: '{"Id": "x",',
          contentType: 'application/json',
          token: server.doctor.token,
        }),
        400,
        'bad_request',
      );
    });
  });

  describe('traceparent (SPEC.md §8)', () => {
    it('keeps the trace id of a valid incoming traceparent, with a span of its own', async () => {
      for (const [method, path, status] of [
        ['GET', '/nope', 404],
        ['POST', '/ePrescription/verify', 400],
        ['POST', dispensePath(), 401],
      ] as const) {
        const answer = await server.request(method, path, {
          headers: { traceparent: INCOMING },
          ...(path.endsWith('verify') ? { contentType: 'text/plain', body: 'not a link' } : {}),
        });
        assertError(answer, status, answer.json.error_code);
        assert.equal(answer.json.trace.TraceID, TRACE_ID);
        assert.equal(answer.json.trace.Flags, '01');
        assert.notEqual(answer.json.trace.ParentID, PARENT_ID);
        assert.equal(answer.headers.get('traceparent')?.split('-')[1], TRACE_ID);
      }
    });

    it('keeps the trace id on a 413 and a 415 as well', async () => {
      const tooLarge = await server.request('POST', '/ePrescription/verify', {
        body: 'x'.repeat(70_000),
        contentType: 'text/plain',
        headers: { traceparent: INCOMING },
      });
      assertError(tooLarge, 413, 'payload_too_large');
      assert.equal(tooLarge.json.trace.TraceID, TRACE_ID);
      const unsupported = await server.request('POST', '/ePrescription/verify', {
        body: '<x/>',
        contentType: 'application/xml',
        headers: { traceparent: INCOMING },
      });
      assertError(unsupported, 415, 'unsupported_media_type');
      assert.equal(unsupported.json.trace.TraceID, TRACE_ID);
    });

    it('generates a trace for an invalid or missing traceparent', async () => {
      for (const traceparent of [
        `00-${'0'.repeat(32)}-${PARENT_ID}-01`,
        `ff-${TRACE_ID}-${PARENT_ID}-01`,
        `00-${TRACE_ID.toUpperCase()}-${PARENT_ID}-01`,
        'garbage',
        undefined,
      ]) {
        const answer = await server.request('GET', '/nope', {
          headers: traceparent === undefined ? {} : { traceparent },
        });
        assertError(answer, 404, 'not_found');
        assert.notEqual(answer.json.trace.TraceID, TRACE_ID);
        assert.notEqual(answer.json.trace.TraceID, '0'.repeat(32));
      }
    });

    it('answers a traceparent on successful calls too', async () => {
      const answer = await server.request('GET', '/healthz', {
        headers: { traceparent: INCOMING },
      });
      assert.equal(answer.status, 200);
      const header = answer.headers.get('traceparent') ?? '';
      assert.match(header, TRACEPARENT);
      assert.equal(header.split('-')[1], TRACE_ID);
    });
  });
});
