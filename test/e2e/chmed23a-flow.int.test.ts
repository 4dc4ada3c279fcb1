/**
 * A CHMED23A prescription over a real socket (SPEC.md §5, §10; docs/decisions.md "CHMED23A
 * prescriptions under the rules of SPEC.md §10"): created from JSON and from its `CHMED23A.`
 * string, verified, dispensed in parts to completion, closed by HIN's full dispensation. The IG's
 * own example prescription is refused only for what it breaks.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  IG_PRESCRIPTION,
  chmed23String,
  sampleChmed23Prescription,
} from '../support/chmed23a-fixtures.js';
import { useTestServer } from '../support/server.js';
import type { Actor } from '../support/server.js';

// The IG example's medicaments: SPIRICORT (reps a 6-month duration, 1 package), DAFALGAN (no reps:
// one more redemption, 2 packages, not to be substituted), MAKATUSSIN (not repeatable, 1), TEMESTA
// (2 repetitions, 1 package).
const SPIRICORT = '7680388400376';
const DAFALGAN = '7680563180079';
const MAKATUSSIN = '7680552740055';
const TEMESTA = '7680362030131';

/** A JSON answer, read field by field. */
type Body = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** A call as a practice or pharmacy system makes it. */
async function call(
  url: string,
  path: string,
  actor: Actor | undefined,
  body?: string,
): Promise<{ status: number; body: Body }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (actor !== undefined) headers.authorization = `Bearer acs:${actor.token}`;
  const response = await fetch(`${url}${path}`, { method: 'POST', headers, body });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

function table(result: { medicaments: Record<string, unknown>[] }) {
  return result.medicaments.map((m) => [m.id, m.prescribed, m.remaining, m.substitution_allowed]);
}

describe('CHMED23A: create, verify, dispense to completion, close', () => {
  const server = useTestServer();
  const document = sampleChmed23Prescription();
  const id = document.id as string;
  let link: string;

  it('creates from the JSON document: the link carries a CHMED23A string', async () => {
    const created = await call(
      server.url,
      '/ePrescription/create?output-format=data',
      server.doctor,
      JSON.stringify(document),
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    link = created.body.SignedPrescriptionData;
    assert.equal(created.body.prescription_id, id);
    assert.match(link, /#CHMED23A\.H4sI[A-Za-z0-9+/=]+&i=[^&]+&t=\d+&s=[0-9a-f]{128}$/);
  });

  it('verifies it: valid, and the medicament table follows nbPack, reps and isNotSub', async () => {
    const short = await call(server.url, '/ePrescription/verify', undefined, link);
    assert.equal(short.status, 200);
    assert.equal(short.body.valid, true);
    const full = await call(server.url, '/ePrescription/verify', server.pharmacist, link);
    assert.equal(full.body.valid, true);
    assert.deepEqual(full.body.tampering_detection_result, {
      prescription_url_valid: true,
      prescription_hash_check_passed: true,
      logs_check_passed: true,
    });
    assert.deepEqual(table(full.body), [
      [SPIRICORT, 1, 1, true],
      [DAFALGAN, 4, 4, false],
      [MAKATUSSIN, 1, 1, true],
      [TEMESTA, 3, 3, true],
    ]);
    // The 6-month duration is shorter than the default year: a year it is.
    const year = Date.parse(document.dt as string) + 365 * 86_400_000;
    assert.equal(Date.parse(full.body.expires_at), year);
  });

  it('refuses a substitute of DAFALGAN (isNotSub) and more than remains', async () => {
    const substitute = [
      { id: DAFALGAN, amount: 1, substitute: '7680000000011', substitute_id_type: 2 },
    ];
    const refused = await call(
      server.url,
      `/ePrescription/dispense/${id}`,
      server.pharmacist,
      JSON.stringify(substitute),
    );
    assert.equal(refused.status, 403);
    assert.equal(refused.body.cause.Code, 'substitution_not_allowed');
    const tooMany = await call(
      server.url,
      `/ePrescription/dispense/${id}`,
      server.pharmacist,
      JSON.stringify([{ id: TEMESTA, amount: 4 }]),
    );
    assert.equal(tooMany.status, 403);
    assert.equal(tooMany.body.cause.Code, 'quantity_exceeded');
  });

  it('dispenses in parts to completion, then takes HIN’s closing step once', async () => {
    const first = [
      { id: SPIRICORT, amount: 1 },
      { id: DAFALGAN, amount: 2 },
    ];
    const second = [
      { id: DAFALGAN, amount: 2 },
      { id: MAKATUSSIN, amount: 1 },
      { id: TEMESTA, amount: 3 },
    ];
    for (const items of [first, second]) {
      const answer = await call(
        server.url,
        `/ePrescription/dispense/${id}`,
        server.pharmacist,
        JSON.stringify(items),
      );
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
    }
    const done = await call(server.url, '/ePrescription/verify', server.pharmacist, link);
    assert.equal(done.body.dispensed, true);
    assert.deepEqual(
      done.body.medicaments.map((m: { remaining: number }) => m.remaining),
      [0, 0, 0, 0],
    );
    const closing = await call(server.url, `/ePrescription/dispense/${id}`, server.pharmacist);
    assert.equal(closing.status, 200, JSON.stringify(closing.body));
    const again = await call(server.url, `/ePrescription/dispense/${id}`, server.pharmacist);
    assert.equal(again.status, 403);
    assert.equal(again.body.cause.Code, 'unknown_error');
    const closed = await call(server.url, '/ePrescription/verify', server.pharmacist, link);
    assert.equal(closed.body.events.at(-1).type, 'full_dispense');
  });

  it('creates from the CHMED23A string: the link carries that very string', async () => {
    const text = chmed23String(sampleChmed23Prescription());
    const created = await call(
      server.url,
      '/ePrescription/create?output-format=data',
      server.doctor,
      text,
    );
    assert.equal(created.status, 200, JSON.stringify(created.body));
    const carried = created.body.SignedPrescriptionData.split('#')[1].split('&')[0];
    assert.equal(carried, text);
    const verified = await call(
      server.url,
      '/ePrescription/verify',
      server.pharmacist,
      created.body.SignedPrescriptionData,
    );
    assert.equal(verified.body.valid, true);
  });

  it('refuses the IG’s example prescription only for what it breaks', async () => {
    const answer = await call(
      server.url,
      '/ePrescription/create?output-format=data',
      server.doctor,
      JSON.stringify(IG_PRESCRIPTION.json),
    );
    assert.equal(answer.status, 400);
    assert.equal(answer.body.cause.Code, 'invalid_document');
    const found = answer.body.violations.map(
      (v: { path: string; code: string }) => `${v.path} ${v.code}`,
    );
    assert.deepEqual(found.sort(), ['/hcPerson/gln gln_digits', '/id required']);
    // With those two mended, only its date, long past, remains.
    const mended = {
      ...IG_PRESCRIPTION.json,
      id: crypto.randomUUID(),
      hcPerson: sampleChmed23Prescription().hcPerson,
    };
    const expired = await call(
      server.url,
      '/ePrescription/create?output-format=data',
      server.doctor,
      JSON.stringify(mended),
    );
    assert.equal(expired.status, 400);
    assert.deepEqual(
      expired.body.violations.map((v: { path: string; code: string }) => `${v.path} ${v.code}`),
      ['/dt expired'],
    );
  });
});
