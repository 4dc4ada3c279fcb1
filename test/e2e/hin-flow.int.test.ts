/**
 * HIN's flow over a real socket (SPEC.md §5 "Rules of state", §10 "HIN compatibility"): a pharmacy
 * system and a practice system written from HIN's public integration guide for its e-prescription
 * service alone, run against erx. The client below knows what that guide says and nothing of erx:
 * its paths (`/ePrescription/<action>/<id>`), plain `Bearer <token>` with a `Token-Type` header,
 * tokens by a client-credentials form, the link as verify's raw body under
 * `Content-Type: application/json` (the guide's curl), a dispensation as a JSON array of
 * `{id, amount}` or no body at all, `force` and `reason` as query parameters, and event ids read
 * from verify's `events`. It goes through one prescription's whole life: create, verify, lock with
 * a reason, partial dispensations, the closing full dispensation HIN requires after them (200; a
 * second one the seed's 403), cancel, cancel of that cancel, a forced dispensation, unlock with a
 * reason, revoke. The differences that remain are tabled in docs/decisions.md.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { MED_A, MED_B, samplePrescription } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';
import type { Actor } from '../support/server.js';

/** What a HIN client reads of an answer: the status and, when there is one, the JSON body. */
interface HinAnswer {
  status: number;
  body: HinBody;
}

/** A JSON answer as a HIN client reads it, field by field. */
type HinBody = any; // eslint-disable-line @typescript-eslint/no-explicit-any

/** An event of verify's `events`, as HIN's guide lists its fields. */
interface HinEvent {
  id: string;
  type: string;
  reference: string;
  event_data: Record<string, unknown>;
  timestamp: string;
  actor: string;
  actor_name: string;
  cancellable: boolean;
}

/** A dispensation item of HIN's guide (4.2.4). */
interface HinDispense {
  id: string;
  amount: number;
}

/** The token kinds HIN's `Token-Type` header names: ACS for dispensing, OAuth for signing. */
type TokenType = 'HIN_ACS' | 'OAUTH';

/**
 * The client of one HIN member (a pharmacy or a practice), written from HIN's integration guide:
 * every call is a plain `fetch`, every header what that guide shows.
 */
class HinClient {
  private token = '';

  constructor(
    private readonly base: string,
    private readonly member: Actor,
    private readonly tokenType: TokenType,
  ) {}

  /** Fetches an access token with the client-credentials grant, sent as a form. */
  async signIn(): Promise<void> {
    const response = await fetch(`${this.base}/REST/v1/OAuth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: this.member.clientId,
        client_secret: this.member.secret,
      }),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const body = (await response.json()) as { access_token: string; token_type: string };
    assert.equal(body.token_type, 'Bearer');
    this.token = body.access_token;
  }

  private async call(path: string, body?: string, signedIn = true): Promise<HinAnswer> {
    const headers: Record<string, string> = { 'Content-Type': 'application/json' };
    if (signedIn) {
      headers.Authorization = `Bearer ${this.token}`;
      headers['Token-Type'] = this.tokenType;
    }
    const response = await fetch(`${this.base}${path}`, { method: 'POST', headers, body });
    const text = await response.text();
    return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
  }

  /** `POST /ePrescription/create?output-format=data`: the signed link of a CHMED16A document. */
  async create(document: Record<string, unknown>): Promise<string> {
    const answer = await this.call(
      '/ePrescription/create?output-format=data',
      JSON.stringify(document),
    );
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.equal(typeof answer.body.SignedPrescriptionData, 'string');
    return answer.body.SignedPrescriptionData as string;
  }

  /** `POST /ePrescription/verify` with the link as the raw body, signed in or not. */
  async verify(link: string, signedIn = true): Promise<HinBody> {
    const answer = await this.call('/ePrescription/verify', link, signedIn);
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body;
  }

  /** `POST /ePrescription/dispense/<id>`: no body is a full dispensation, items a partial one. */
  dispense(id: string, items?: HinDispense[], force?: string): Promise<HinAnswer> {
    const query = force === undefined ? '' : `?force=${force}`;
    const body = items === undefined ? undefined : JSON.stringify(items);
    return this.call(`/ePrescription/dispense/${encodeURIComponent(id)}${query}`, body);
  }

  /** `POST /ePrescription/cancel/<id>/event/<eventId>`, no body. */
  cancel(id: string, eventId: string): Promise<HinAnswer> {
    return this.call(
      `/ePrescription/cancel/${encodeURIComponent(id)}/event/${encodeURIComponent(eventId)}`,
    );
  }

  /** `POST /ePrescription/lock/<id>?reason=…`, no body. */
  lock(id: string, reason: string): Promise<HinAnswer> {
    return this.call(
      `/ePrescription/lock/${encodeURIComponent(id)}?reason=${encodeURIComponent(reason)}`,
    );
  }

  /** `POST /ePrescription/unlock/<id>?reason=…`, no body. */
  unlock(id: string, reason: string): Promise<HinAnswer> {
    return this.call(
      `/ePrescription/unlock/${encodeURIComponent(id)}?reason=${encodeURIComponent(reason)}`,
    );
  }

  /** `POST /ePrescription/revoke/<id>`, no body. */
  revoke(id: string): Promise<HinAnswer> {
    return this.call(`/ePrescription/revoke/${encodeURIComponent(id)}`);
  }
}

/** The packages left of each medicament, as erx's verify adds them to HIN's fields. */
function remaining(result: { medicaments: { id: string; remaining: number }[] }) {
  return Object.fromEntries(result.medicaments.map((m) => [m.id, m.remaining]));
}

/** The newest event of `type` in verify's `events` (earliest first, as HIN lists them). */
function newest(result: { events: HinEvent[] }, type: string): HinEvent {
  const event = result.events.filter((e) => e.type === type).at(-1);
  assert.ok(event, `no ${type} event in ${JSON.stringify(result.events.map((e) => e.type))}`);
  return event;
}

describe("HIN's flow, as a client written from HIN's integration guide runs it", () => {
  const server = useTestServer();
  let practice: HinClient;
  let pharmacy: HinClient;
  let otherPharmacy: HinClient;
  const document = samplePrescription();
  const id = document.Id as string;
  let link: string;
  let secondPartial: HinEvent;
  let cancelOfPartial: HinEvent;

  before(async () => {
    practice = new HinClient(server.url, server.doctor, 'OAUTH');
    pharmacy = new HinClient(server.url, server.pharmacist, 'HIN_ACS');
    otherPharmacy = new HinClient(server.url, server.pharmacist2, 'HIN_ACS');
    await Promise.all([practice.signIn(), pharmacy.signIn(), otherPharmacy.signIn()]);
  });

  it('creates the prescription and gets its signed link', async () => {
    link = await practice.create(document);
    assert.match(link, /#CHMED16A1[A-Za-z0-9+/=]+&i=[^&]+&t=\d+&s=[0-9a-f]+$/);
  });

  it("verifies it without signing in: HIN's six fields, valid, neither revoked nor dispensed", async () => {
    const result = await pharmacy.verify(link, false);
    assert.deepEqual(Object.keys(result).sort(), [
      'dispensed',
      'issued_at',
      'issued_by',
      'prescription_id',
      'revoked',
      'valid',
    ]);
    assert.equal(result.prescription_id, id);
    assert.equal(result.valid, true);
    assert.equal(result.revoked, false);
    assert.equal(result.dispensed, false);
    assert.match(result.issued_by, new RegExp(`\\(${server.doctor.sub.replace('|', '\\|')}\\)$`));
  });

  it('locks it with a reason: verify shows it locked and the reason in the lock event', async () => {
    assert.equal((await pharmacy.lock(id, 'patient at the counter')).status, 200);
    const result = await pharmacy.verify(link);
    assert.equal(result.locked, true);
    assert.equal(typeof result.locked_at, 'string');
    const lock = newest(result, 'lock');
    assert.equal(lock.event_data.reason, 'patient at the counter');
    assert.equal(lock.actor, server.pharmacist.sub);
    // Another pharmacy cannot act on it meanwhile.
    assert.equal((await otherPharmacy.dispense(id, [{ id: MED_A, amount: 1 }])).status, 423);
  });

  it('records partial dispensations until every medicament is covered', async () => {
    // The sample prescribes 1 package of MED_A and 2 × (1 + 3 repetitions) = 8 of MED_B.
    assert.equal(
      (
        await pharmacy.dispense(id, [
          { id: MED_A, amount: 1 },
          { id: MED_B, amount: 3 },
        ])
      ).status,
      200,
    );
    assert.equal((await pharmacy.dispense(id, [{ id: MED_B, amount: 5 }])).status, 200);
    const result = await pharmacy.verify(link);
    assert.deepEqual(remaining(result), { [MED_A]: 0, [MED_B]: 0 });
    const partials = result.events.filter((e: HinEvent) => e.type === 'partial_dispense');
    assert.equal(partials.length, 2);
    secondPartial = partials[1];
    assert.deepEqual(
      (result.partial_dispensations as { medicine_id: string; amount: number }[]).map((p) => [
        p.medicine_id,
        p.amount,
      ]),
      [
        [MED_A, 1],
        [MED_B, 3],
        [MED_B, 5],
      ],
    );
  });

  it('accepts the closing full dispensation HIN requires after partials (200), once', async () => {
    const closing = await pharmacy.dispense(id);
    assert.equal(closing.status, 200, JSON.stringify(closing.body));
    const result = await pharmacy.verify(link);
    assert.equal(result.dispensed, true);
    assert.equal(result.dispensed_by, server.pharmacist.sub);
    assert.deepEqual(newest(result, 'full_dispense').event_data, {});

    const second = await pharmacy.dispense(id);
    assert.equal(second.status, 403);
    assert.equal(second.body.error_code, 'forbidden');
    assert.equal(second.body.cause.StatusCode, 403);
    assert.equal(second.body.cause.Code, 'unknown_error');
    assert.match(second.body.cause.Message, /already.*fully dispensed/i);
  });

  it('cancels a partial dispensation: its packages are open again', async () => {
    assert.equal((await pharmacy.cancel(id, secondPartial.id)).status, 200);
    const result = await pharmacy.verify(link);
    assert.deepEqual(remaining(result), { [MED_A]: 0, [MED_B]: 5 });
    cancelOfPartial = newest(result, 'cancel');
    assert.deepEqual(cancelOfPartial.event_data, { EventId: secondPartial.id });
    assert.equal(cancelOfPartial.cancellable, true);
    const cancelled = result.events.find((e: HinEvent) => e.id === secondPartial.id);
    assert.equal(cancelled.cancellable, false);
  });

  it("cancels that cancel: the cancelled dispensation's packages count again", async () => {
    assert.equal((await pharmacy.cancel(id, cancelOfPartial.id)).status, 200);
    const result = await pharmacy.verify(link);
    assert.deepEqual(remaining(result), { [MED_A]: 0, [MED_B]: 0 });
    assert.deepEqual(newest(result, 'cancel').event_data, { EventId: cancelOfPartial.id });
    assert.equal(result.dispensed, true);
    assert.deepEqual(
      (result.partial_dispensations as { medicine_id: string; amount: number }[]).map((p) => [
        p.medicine_id,
        p.amount,
      ]),
      [
        [MED_A, 1],
        [MED_B, 3],
        [MED_B, 5],
      ],
    );
  });

  it('takes force as HTTP clients write booleans (True, 1) on a fully dispensed prescription', async () => {
    for (const force of ['True', '1']) {
      const forced = await pharmacy.dispense(id, [{ id: MED_A, amount: 1 }], force);
      assert.equal(forced.status, 200, `force=${force}: ${JSON.stringify(forced.body)}`);
    }
    const result = await pharmacy.verify(link);
    const forced = result.events.filter(
      (e: HinEvent) => e.type === 'partial_dispense' && e.event_data.force === true,
    );
    assert.equal(forced.length, 2);
  });

  it('unlocks it with a reason: verify shows it unlocked and the reason in the unlock event', async () => {
    assert.equal((await pharmacy.unlock(id, 'handed over')).status, 200);
    const result = await pharmacy.verify(link);
    assert.equal(result.locked, false);
    assert.equal(newest(result, 'unlock').event_data.reason, 'handed over');
  });

  it('revokes it: revoked for everyone, no further dispensation, the revocation final', async () => {
    assert.equal((await practice.revoke(id)).status, 200);
    const anonymous = await pharmacy.verify(link, false);
    assert.equal(anonymous.revoked, true);
    assert.equal(anonymous.valid, true);
    const result = await practice.verify(link);
    const revocation = newest(result, 'revoke');
    assert.equal(revocation.cancellable, false);
    for (const refused of [
      await pharmacy.dispense(id, undefined, 'true'),
      await practice.cancel(id, revocation.id),
    ]) {
      assert.equal(refused.status, 403);
      assert.equal(refused.body.cause.Code, 'revoked');
    }
    assert.deepEqual(
      result.events.map((e: HinEvent) => e.type),
      [
        'create',
        'lock',
        'partial_dispense',
        'partial_dispense',
        'full_dispense',
        'cancel',
        'cancel',
        'partial_dispense',
        'partial_dispense',
        'unlock',
        'revoke',
      ],
    );
    for (const event of result.events as HinEvent[]) assert.equal(event.reference, id);
  });
});
