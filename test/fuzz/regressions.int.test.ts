/**
 * One test per defect the fuzz suites found, so each stays fixed even when a
 * fuzz run happens not to generate its input.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { assertError, json } from '../support/e2e.js';
import { samplePrescription } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';
import { answerProblem } from './support/oracle.js';
import { sendBytes } from './support/transport.js';

describe('defects found by fuzzing', () => {
  const server = useTestServer();
  let port: number;
  before(async () => {
    port = Number(new URL(server.url).port);
  });

  it('refuses, before storing it, a prescription too large to draw as a QR code (was a 500)', async () => {
    // Random text barely compresses: the link passes 2,331 bytes, the most one QR code holds.
    const doc = samplePrescription({ Rmk: randomBytes(3000).toString('hex') });
    for (const format of ['qrcode', 'svg']) {
      const answer = await server.request(
        'POST',
        `/ePrescription/create?output-format=${format}`,
        json(doc, { token: server.doctor.token }),
      );
      assertError(answer, 400, 'bad_request', 'too_large_for_qr');
    }
    assert.equal(
      (await server.runtime.store.readChain(doc.Id as string))?.state.prescription,
      undefined,
    );
    const data = await server.request(
      'POST',
      '/ePrescription/create?output-format=data',
      json(doc, { token: server.doctor.token }),
    );
    assert.equal(data.status, 200, data.text);
  });

  it('answers requests that Node’s HTTP parser refuses in the error shape (was Fastify’s own body)', async () => {
    const requests = [
      'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n',
      'GET /\u00e9 HTTP/1.1\r\nHost: x\r\n\r\n',
      `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      'GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n',
      'NOT-HTTP\r\n\r\n',
    ];
    for (const raw of requests) {
      const answer = await sendBytes(port, Buffer.from(raw, 'utf8'));
      assert.equal(answer.status, 400, `${JSON.stringify(raw.slice(0, 30))}: ${answer.status}`);
      assert.equal(answerProblem('GET', answer), undefined, answer.body.toString());
    }
  });

  it('lists at most 100 violations (10,000 empty items answered 1.5 MB)', async () => {
    const id = (
      await server.request(
        'POST',
        '/ePrescription/create?output-format=data',
        json(samplePrescription(), { token: server.doctor.token }),
      )
    ).json.prescription_id as string;
    const answer = await server.request('POST', `/ePrescription/dispense/${id}`, {
      token: server.pharmacist.token,
      contentType: 'application/json',
      body: `[${'{},'.repeat(9_999)}{}]`,
    });
    assertError(answer, 400, 'bad_request');
    assert.equal(answer.json.violations.length, 100);
    assert.ok(answer.bytes.length < 20_000, `${answer.bytes.length} bytes`);
  });
});
