/**
 * `POST /ePrescription/create` over a real socket (SPEC.md §4–5): every accepted body form, every
 * output format, and every refusal, each refusal leaving the store without the prescription.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { encodeChmed } from '../../src/chmed16a/index.js';
import type { Prescription } from '../../src/chmed16a/index.js';
import { decodeQrPng } from '../../src/qr/decode-png.js';
import { assertError, eventCount, json, verify } from '../support/e2e.js';
import { MED_A, samplePrescription } from '../support/fixtures.js';
import type { Answer, RequestOptions } from '../support/http.js';
import { useTestServer } from '../support/server.js';

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const LINK =
  /^http:\/\/erx\.test\/rx\/#CHMED16A1[A-Za-z0-9+/]+=*&i=[^&]+&t=[0-9]+&s=[0-9a-f]{128}$/;

describe('create', () => {
  const server = useTestServer();

  function create(query: string, options: RequestOptions): Promise<Answer> {
    return server.request('POST', `/ePrescription/create${query}`, {
      token: server.doctor.token,
      ...options,
    });
  }

  /** Asserts a `data` answer for `id`, and that the prescription exists with its create event. */
  async function assertCreated(answer: Answer, id: string): Promise<string> {
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(Object.keys(answer.json).sort(), [
      'SignedPrescriptionData',
      'prescription_id',
      'receipt',
    ]);
    assert.equal(answer.json.prescription_id, id);
    assert.match(answer.json.receipt, /^c2sp\.org\/tlog-proof@v1\n/);
    assert.match(answer.json.SignedPrescriptionData, LINK);
    assert.equal(await eventCount(server, id), 1);
    return answer.json.SignedPrescriptionData as string;
  }

  /** Asserts that prescription `id` was not stored. */
  async function assertNotStored(id: string): Promise<void> {
    assert.equal((await server.runtime.store.readChain(id))?.state.prescription, undefined);
    assert.equal(await eventCount(server, id), 0);
  }

  describe('body forms', () => {
    it('takes the JSON document and answers the link and the id (output-format=data)', async () => {
      const doc = samplePrescription();
      const link = await assertCreated(
        await create('?output-format=data', json(doc)),
        doc.Id as string,
      );
      const verified = await verify(server, link);
      assert.equal(verified.prescription_id, doc.Id);
      assert.equal(verified.valid, true);
      assert.equal(verified.issued_by, `${server.doctor.name} (${server.doctor.sub})`);
    });

    it('takes a raw CHMED16A1 string under text/plain and under application/json', async () => {
      for (const contentType of ['text/plain', 'application/json']) {
        const doc = samplePrescription();
        const chmed = encodeChmed(doc as unknown as Prescription);
        const link = await assertCreated(
          await create('?output-format=data', { body: chmed, contentType }),
          doc.Id as string,
        );
        // The service re-encodes the same document: the link carries the same CHMED16A1 data.
        assert.ok(link.includes(`#${chmed}&i=`), contentType);
      }
    });

    it('takes a CHMED16A1 string as a JSON string', async () => {
      const doc = samplePrescription();
      const chmed = encodeChmed(doc as unknown as Prescription);
      await assertCreated(await create('?output-format=data', json(chmed)), doc.Id as string);
    });

    it('takes a CHMED16A0 plain-JSON string and always answers CHMED16A1', async () => {
      const doc = samplePrescription();
      const link = await assertCreated(
        await create('?output-format=data', {
          body: `CHMED16A0${JSON.stringify(doc)}`,
          contentType: 'text/plain',
        }),
        doc.Id as string,
      );
      assert.ok(link.includes('#CHMED16A1'));
    });

    it('stores the SHA-256 of the CHMED16A1 part as prescription_hash', async () => {
      const doc = samplePrescription();
      const link = await assertCreated(
        await create('?output-format=data', json(doc)),
        doc.Id as string,
      );
      const chmed = link.slice(link.indexOf('#') + 1, link.indexOf('&i='));
      const [createEvent] = (await verify(server, link, server.pharmacist.token)).events;
      assert.equal(
        createEvent.prescription_hash,
        createHash('sha256').update(chmed, 'utf8').digest('hex'),
      );
    });
  });

  describe('output formats', () => {
    it('answers a PNG QR code by default, which decodes to a working link', async () => {
      const doc = samplePrescription();
      const answer = await create('', json(doc));
      assert.equal(answer.status, 200, answer.text);
      assert.match(answer.headers.get('content-type') ?? '', /^image\/png/);
      assert.ok(answer.bytes.subarray(0, 8).equals(PNG_MAGIC));
      assert.equal(answer.bytes.readUInt32BE(16), 400);
      assert.equal(answer.headers.get('x-prescription-id'), doc.Id);
      const link = decodeQrPng(answer.bytes);
      assert.match(link, LINK);
      assert.equal((await verify(server, link)).prescription_id, doc.Id);
    });

    it('answers a PNG for output-format=qrcode with a size', async () => {
      const doc = samplePrescription();
      const answer = await create('?output-format=qrcode&size=1000', json(doc));
      assert.equal(answer.status, 200, answer.text);
      assert.ok(answer.bytes.subarray(0, 8).equals(PNG_MAGIC));
      // The PNG width is in the IHDR chunk, bytes 16..20.
      assert.equal(answer.bytes.readUInt32BE(16), 1000);
      const link = decodeQrPng(answer.bytes);
      assert.equal((await verify(server, link)).prescription_id, doc.Id);
    });

    it('answers an SVG for output-format=svg', async () => {
      const doc = samplePrescription();
      const answer = await create('?output-format=svg', json(doc));
      assert.equal(answer.status, 200, answer.text);
      assert.match(answer.headers.get('content-type') ?? '', /^image\/svg\+xml/);
      assert.match(answer.text, /<svg[\s>]/);
      assert.equal(await eventCount(server, doc.Id as string), 1);
    });

    for (const query of [
      '?output-format=qrcode&size=10',
      '?output-format=qrcode&size=5000',
      '?output-format=qrcode&size=abc',
      '?output-format=qrcode&size=-1',
      '?output-format=qrcode&size=1.5',
      '?output-format=data&size=0',
      '?output-format=pdf',
    ]) {
      it(`refuses ${query} with 400 and stores nothing`, async () => {
        const doc = samplePrescription();
        assertError(await create(query, json(doc)), 400, 'bad_request');
        await assertNotStored(doc.Id as string);
      });
    }
  });

  describe('refusals', () => {
    it("refuses a pharmacist's create for its role before reading its document (403)", async () => {
      const answer = await server.request('POST', '/ePrescription/create?output-format=data', {
        token: server.pharmacist.token,
        ...json(samplePrescription({ MedType: 2 })),
      });
      assertError(answer, 403, 'forbidden');
    });

    it('refuses an invalid document with 400 and every violation by path', async () => {
      const doc = samplePrescription({
        MedType: 2,
        Auth: '123',
        Unknown: true,
        Patient: { LName: 'Muster', BDt: '1968-05-21', Zip: '12' },
        Medicaments: [{ Id: MED_A, IdType: 4, Rep: 25 }],
      });
      const answer = await create('?output-format=data', json(doc));
      assertError(answer, 400, 'bad_request');
      const paths = (answer.json.violations as { path: string; message: string }[]).map(
        (v) => v.path,
      );
      for (const path of [
        '/MedType',
        '/Auth',
        '/Unknown',
        '/Patient/FName',
        '/Patient/Zip',
        '/Medicaments/0/IdType',
        '/Medicaments/0/Rep',
      ]) {
        assert.ok(paths.includes(path), `${path} missing in ${JSON.stringify(paths)}`);
      }
      for (const v of answer.json.violations) assert.equal(typeof v.message, 'string');
      await assertNotStored(doc.Id as string);
    });

    it('refuses rev 2 without HcOrg with a violation at /HcOrg', async () => {
      const doc = samplePrescription({ rev: 3 });
      delete doc.HcOrg;
      const answer = await create('?output-format=data', json(doc));
      assertError(answer, 400, 'bad_request');
      assert.ok(answer.json.violations.some((v: { path: string }) => v.path === '/HcOrg'));
      await assertNotStored(doc.Id as string);
    });

    it('refuses an Id that is not a UUID with a violation at /Id', async () => {
      const doc = samplePrescription({ Id: 'rx-0001' });
      const answer = await create('?output-format=data', json(doc));
      assertError(answer, 400, 'bad_request');
      assert.deepEqual(
        answer.json.violations.map((v: { path: string }) => v.path),
        ['/Id'],
      );
      await assertNotStored('rx-0001');
    });

    it('refuses a medicament Id given twice with a violation at the second', async () => {
      const doc = samplePrescription();
      const [first, second] = doc.Medicaments as Record<string, unknown>[];
      doc.Medicaments = [first, second, { ...second, NbPack: 5 }];
      const answer = await create('?output-format=data', json(doc));
      assertError(answer, 400, 'bad_request');
      assert.deepEqual(answer.json.violations, [
        {
          path: '/Medicaments/2/Id',
          code: 'repeated_id',
          message: 'repeats the Id of medicament 1',
          params: { index: 1 },
        },
      ]);
      await assertNotStored(doc.Id as string);
    });

    it('refuses an empty body, a JSON number and a non-CHMED string with 400', async () => {
      for (const options of [
        { body: '', contentType: 'application/json' },
        json(42),
        json('hello'),
        { body: 'hello', contentType: 'text/plain' },
        { body: 'CHMED16A1!!!not-base64', contentType: 'text/plain' },
        { body: '{"Id": ', contentType: 'application/json' },
      ]) {
        assertError(await create('?output-format=data', options), 400, 'bad_request');
      }
    });

    it('refuses a duplicate Id with 409 and keeps the one create event', async () => {
      const doc = samplePrescription();
      await assertCreated(await create('?output-format=data', json(doc)), doc.Id as string);
      assertError(await create('?output-format=data', json(doc)), 409, 'conflict');
      // Another prescriber may not take the id either.
      assertError(
        await create('?output-format=data', json(doc, { token: server.doctor2.token })),
        409,
        'conflict',
      );
      assert.equal(await eventCount(server, doc.Id as string), 1);
    });

    it('refuses a pharmacist with 403', async () => {
      const doc = samplePrescription();
      assertError(
        await create('?output-format=data', json(doc, { token: server.pharmacist.token })),
        403,
        'forbidden',
      );
      await assertNotStored(doc.Id as string);
    });

    it('refuses a call without a token with 401 and WWW-Authenticate', async () => {
      const doc = samplePrescription();
      const answer = await server.request(
        'POST',
        '/ePrescription/create?output-format=data',
        json(doc),
      );
      assertError(answer, 401, 'unauthorized');
      assert.ok(answer.headers.get('www-authenticate'));
      await assertNotStored(doc.Id as string);
    });

    it('refuses an inactive token with 401', async () => {
      const doc = samplePrescription();
      assertError(
        await create('?output-format=data', json(doc, { token: 'not-a-real-token' })),
        401,
        'unauthorized',
      );
      await assertNotStored(doc.Id as string);
    });
  });
});
