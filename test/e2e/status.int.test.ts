/**
 * `POST /ePrescription/status` over a real socket (SPEC.md §10 "Who sees what"): the holder of a
 * genuine link learns the validity end and the packages left of an open, partly dispensed,
 * dispensed, expired and revoked prescription; any other link gets exactly the anonymous verify
 * answer (a forged signature: every flag false, whether the id exists or not), an unknown but
 * well-signed one a 404 like verify.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { encodeChmed } from '../../src/chmed16a/index.js';
import type { Prescription } from '../../src/chmed16a/index.js';
import { buildLink, formatIssuer } from '../../src/link/index.js';
import {
  assertError,
  calls,
  createPrescription,
  expectationsOn,
  json,
  verify,
} from '../support/e2e.js';
import type { Created, JsonObject } from '../support/e2e.js';
import { MED_A, MED_B, samplePrescription } from '../support/fixtures.js';
import type { Answer, RequestOptions } from '../support/http.js';
import { useTestServer } from '../support/server.js';

const SHORT_KEYS = ['dispensed', 'issued_at', 'issued_by', 'prescription_id', 'revoked', 'valid'];
const STATUS_KEYS = [...SHORT_KEYS, 'expired', 'expires_at', 'medicaments'].sort();
/** The default `ERX_PRESCRIPTION_VALIDITY` (SPEC.md §10), longer than the sample's 3 repeats. */
const VALIDITY_MS = 365 * 86_400_000;

/** `link` with the last hex digit of its signature changed. */
function withChangedSignature(link: string): string {
  return `${link.slice(0, -1)}${link.endsWith('0') ? '1' : '0'}`;
}

/** The sample's packages: MED_A 1 × 1, MED_B 2 × (1 + 3). */
function packages(dispensedA: number, dispensedB: number): JsonObject[] {
  return [
    { id: MED_A, prescribed: 1, dispensed: dispensedA, remaining: 1 - dispensedA },
    { id: MED_B, prescribed: 8, dispensed: dispensedB, remaining: 8 - dispensedB },
  ];
}

describe('status for the holder of a link', () => {
  let clockMovedMs = 0;
  const server = useTestServer({ runtime: { now: () => Date.now() + clockMovedMs } });
  const call = calls(server);
  const { appends } = expectationsOn(server);

  function post(options: RequestOptions): Promise<Answer> {
    return server.request('POST', '/ePrescription/status', options);
  }

  /** The status of `link`, sent raw as verify takes it; asserts 200. */
  async function status(link: string): Promise<JsonObject> {
    const answer = await post({ body: link, contentType: 'text/plain' });
    assert.equal(answer.status, 200, answer.text);
    return answer.json;
  }

  /** A well-signed link of `doc`, as erx would have issued it. */
  function signedLink(doc: Record<string, unknown>): string {
    return buildLink({
      prescriptionUrl: server.runtime.config.prescriptionUrl,
      chmed: encodeChmed(doc as unknown as Prescription),
      issuer: formatIssuer(server.doctor.name, server.doctor.sub),
      issuedAt: Math.floor(Date.now() / 1000),
      keyring: server.runtime.linkKeys,
    });
  }

  let open: Created;
  let openDt: number;
  before(async () => {
    const doc = samplePrescription();
    openDt = Date.parse(doc.Dt as string);
    open = await createPrescription(server, doc);
  });

  it('answers an open prescription with its validity end and every package left', async () => {
    const result = await status(open.link);
    assert.deepEqual(Object.keys(result).sort(), STATUS_KEYS);
    const short = await verify(server, open.link);
    for (const key of SHORT_KEYS) assert.equal(result[key], short[key], key);
    assert.equal(result.valid, true);
    assert.equal(result.expired, false);
    assert.equal(Date.parse(result.expires_at), openDt + VALIDITY_MS);
    assert.match(result.expires_at, /Z$/);
    assert.deepEqual(result.medicaments, packages(0, 0));
  });

  it('takes the link in every body form verify takes', async () => {
    for (const options of [
      { body: `${open.link}\n`, contentType: 'application/json' },
      json(open.link),
      { body: `${open.link}\r\n`, contentType: 'text/plain' },
    ]) {
      const answer = await post(options);
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(answer.json.medicaments, packages(0, 0));
    }
    assertError(await post(json({ link: open.link })), 400, 'bad_request');
    assertError(await post({ body: 'hello', contentType: 'text/plain' }), 400, 'bad_request');
  });

  it('answers what is left after a partial dispensation, then none once dispensed', async () => {
    const rx = await createPrescription(server);
    await appends(
      rx.id,
      call.dispenseItems(rx.id, server.pharmacist, [{ id: MED_B, amount: 3 }]),
      'partial_dispense',
    );
    const partial = await status(rx.link);
    assert.deepEqual([partial.valid, partial.dispensed, partial.expired], [true, false, false]);
    assert.deepEqual(partial.medicaments, packages(0, 3));

    await appends(rx.id, call.full(rx.id), 'full_dispense');
    const dispensed = await status(rx.link);
    assert.equal(dispensed.dispensed, true);
    assert.deepEqual(dispensed.medicaments, packages(1, 8));
  });

  it('answers a revoked prescription as revoked, with its packages', async () => {
    const rx = await expectationsOn(server).revoked();
    const result = await status(rx.link);
    assert.deepEqual([result.valid, result.revoked, result.dispensed], [true, true, false]);
    assert.deepEqual(result.medicaments, packages(0, 0));
  });

  it('answers an expired prescription as expired, with the end it passed', async () => {
    // Dated so that it expires a minute after it is created; then the clock moves on two.
    const dt = Date.now() - VALIDITY_MS + 60_000;
    const rx = await createPrescription(
      server,
      samplePrescription({ Dt: new Date(dt).toISOString() }),
    );
    assert.equal((await status(rx.link)).expired, false);
    clockMovedMs = 120_000;
    try {
      const result = await status(rx.link);
      assert.equal(result.expired, true);
      assert.equal(Date.parse(result.expires_at), dt + VALIDITY_MS);
      assert.deepEqual(result.medicaments, packages(0, 0));
    } finally {
      clockMovedMs = 0;
    }
  });

  it('answers a forged link exactly as anonymous verify: every flag false', async () => {
    const forged = withChangedSignature(open.link);
    const result = await status(forged);
    assert.deepEqual(result, await verify(server, forged));
    assert.deepEqual(Object.keys(result).sort(), SHORT_KEYS);
    assert.deepEqual([result.valid, result.revoked, result.dispensed], [false, false, false]);

    // The same answer for an id the store has never seen: no existence oracle.
    const unknown = withChangedSignature(signedLink(samplePrescription()));
    const none = await status(unknown);
    assert.deepEqual(Object.keys(none).sort(), SHORT_KEYS);
    assert.deepEqual([none.valid, none.revoked, none.dispensed], [false, false, false]);
  });

  it('answers a well-signed link to another document under a recorded id as verify does', async () => {
    const rx = await expectationsOn(server).revoked();
    const other = signedLink(samplePrescription({ Id: rx.id, Rmk: 'another document' }));
    const result = await status(other);
    assert.deepEqual(result, await verify(server, other));
    assert.deepEqual(Object.keys(result).sort(), SHORT_KEYS);
    assert.equal(result.valid, false);
  });

  it('answers 404 for a well-signed link to a prescription never created', async () => {
    const link = signedLink(samplePrescription());
    assertError(await post({ body: link, contentType: 'text/plain' }), 404, 'not_found');
  });
});
