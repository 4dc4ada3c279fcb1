/**
 * Links erx did not issue at verify and status (SPEC.md §3 "Links erx did not issue"): HIN's
 * published links, and erx's own link given another issuer's fields, answer 400 `foreign_link`
 * naming the link's host, whoever asks; a link of that form whose document does not decode stays
 * a plain bad link; a link in erx's form whose signature fails is answered as before.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { assertError, createPrescription, verify } from '../support/e2e.js';
import type { Created, JsonObject } from '../support/e2e.js';
import { FOREIGN_LINKS } from '../support/foreign-links.js';
import type { Answer } from '../support/http.js';
import { useTestServer } from '../support/server.js';

describe('links erx did not issue', () => {
  const server = useTestServer();
  let rx: Created;
  before(async () => {
    rx = await createPrescription(server);
  });

  function post(path: string, link: string, token?: string): Promise<Answer> {
    return server.request('POST', path, {
      body: link,
      contentType: 'text/plain',
      ...(token === undefined ? {} : { token }),
    });
  }

  /** Asserts the 400 `foreign_link` of `answer`, naming `host`. */
  function assertForeign(answer: Answer, host: string, what: string): void {
    assertError(answer, 400, 'bad_request', 'foreign_link');
    const body = answer.json as JsonObject;
    assert.deepEqual(body.params, { host }, what);
    assert.ok((body.message as string).includes(host), what);
    assert.ok(!(body.message as string).includes('CHMED'), `${what}: the link is not echoed`);
  }

  it('answers HIN’s published links with 400 foreign_link naming their host, at verify and status', async () => {
    for (const fixture of FOREIGN_LINKS) {
      for (const token of [undefined, server.pharmacist.token, server.doctor.token]) {
        assertForeign(
          await post('/ePrescription/verify', fixture.link, token),
          fixture.host,
          fixture.name,
        );
      }
      assertForeign(await post('/ePrescription/status', fixture.link), fixture.host, fixture.name);
      // As a JSON string too, as verify takes the link.
      const asJson = await server.request('POST', '/ePrescription/verify', {
        body: JSON.stringify(fixture.link),
        contentType: 'application/json',
      });
      assertForeign(asJson, fixture.host, fixture.name);
    }
  });

  it('answers erx’s own document under another issuer’s fields as foreign, naming erx’s host', async () => {
    const fragment = rx.link.slice(rx.link.indexOf('#'));
    const chmed = fragment.slice(1, fragment.indexOf('&'));
    const base = rx.link.slice(0, rx.link.indexOf('#'));
    const host = new URL(base).host;
    for (const link of [
      `${rx.link}&x=1`,
      `${base}#${chmed}&${'ab'.repeat(65)}`,
      rx.link.replace(/&s=([0-9a-f]+)$/, '&s=$1ff'),
      `https://eprescription.hin.ch/#${chmed}&q07l&i=Dr.+A&t=1&s=${'ab'.repeat(65)}`,
    ]) {
      const expected = link.startsWith('https://eprescription.hin.ch/')
        ? 'eprescription.hin.ch'
        : host;
      assertForeign(
        await post('/ePrescription/verify', link, server.pharmacist.token),
        expected,
        link.slice(-20),
      );
    }
    // Nothing was recorded on the prescription whose document it carries.
    const answer = await verify(server, rx.link, server.pharmacist.token);
    assert.equal(answer.valid, true);
    assert.deepEqual(
      (answer.events as JsonObject[]).map((e) => e.type),
      ['create'],
    );
  });

  it('answers a link of another issuer’s form whose document does not decode as a bad link', async () => {
    for (const link of [
      'https://eprescription.hin.ch/#CHMED16A1!!!!&q07l&i=Dr.+A&t=1&s=ab',
      'https://eRx.ch/#CHMED16A1AAAA&q07l',
      'https://eRx.ch/#CHMED16A0[1]&q07l',
    ]) {
      const answer = await post('/ePrescription/verify', link, server.pharmacist.token);
      assertError(answer, 400, 'bad_request');
      assert.notEqual((answer.json as JsonObject).cause.Code, 'foreign_link', link);
    }
  });

  it('answers a link in erx’s form whose signature fails as before: not valid', async () => {
    const forged = rx.link.replace(/.$/, (c) => (c === '0' ? '1' : '0'));
    // The issuer reads the forged link's history (SPEC.md §10); an uninvolved pharmacy would not.
    const answer = await verify(server, forged, server.doctor.token);
    assert.equal(answer.valid, false);
    assert.equal((answer.tampering_detection_result as JsonObject).prescription_url_valid, false);
  });
});
