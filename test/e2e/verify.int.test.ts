/**
 * `POST /ePrescription/verify` over a real socket (seed §4.2, §2.3–2.5; SPEC.md §5–6, §10): every
 * body form, both variants with their exact key sets and who gets which, the field types, and the
 * tamper checks.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { encodeChmed } from '../../src/chmed16a/index.js';
import type { Prescription } from '../../src/chmed16a/index.js';
import { buildLink, formatIssuer } from '../../src/link/index.js';
import {
  assertError,
  calls,
  createPrescription,
  expectAppended,
  json,
  verify,
} from '../support/e2e.js';
import type { Created, JsonObject } from '../support/e2e.js';
import {
  MED_A,
  MED_B,
  SUBSTITUTE,
  roomyPrescription,
  samplePrescription,
} from '../support/fixtures.js';
import type { Answer, RequestOptions } from '../support/http.js';
import { useTestServer } from '../support/server.js';

const SHORT_KEYS = ['dispensed', 'issued_at', 'issued_by', 'prescription_id', 'revoked', 'valid'];
/** The variant with transactions of a prescription neither dispensed nor locked (SPEC.md §10). */
const FULL_KEYS = [
  ...SHORT_KEYS,
  'events',
  'expired',
  'expires_at',
  'locked',
  'medicaments',
  'partial_dispensations',
  'tampering_detection_result',
].sort();
const TAMPER_KEYS = [
  'logs_check_passed',
  'prescription_hash_check_passed',
  'prescription_url_valid',
];
const UTC_FRACTIONAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{1,9}Z$/;
const UTC_FRACTIONAL_OR_WHOLE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const ZURICH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/;
const HASH = /^[0-9a-f]{64}$/;
/** The default `ERX_PRESCRIPTION_VALIDITY` (SPEC.md §10), longer than the sample's 3 repeats. */
const VALIDITY_MS = 365 * 86_400_000;
/** The default `ERX_LOCK_TTL` (SPEC.md §10). */
const LOCK_TTL_MS = 15 * 60_000;

/** The `CHMED16A1…` part of a link. */
function chmedOf(link: string): string {
  return link.slice(link.indexOf('#') + 1, link.indexOf('&i='));
}

/** `link` with the last hex digit of its signature changed. */
function withChangedSignature(link: string): string {
  return `${link.slice(0, -1)}${link.endsWith('0') ? '1' : '0'}`;
}

/** The decoded protected header of a compact JWS. */
function jwsHeader(jws: string): JsonObject {
  return JSON.parse(Buffer.from(jws.split('.')[0]!, 'base64url').toString('utf8')) as JsonObject;
}

describe('verify', () => {
  const server = useTestServer();
  const rxDoc = samplePrescription();
  let rx: Created;
  before(async () => {
    rx = await createPrescription(server, rxDoc);
  });

  function post(options: RequestOptions): Promise<Answer> {
    return server.request('POST', '/ePrescription/verify', options);
  }

  describe('body forms', () => {
    it('reads the raw link under application/json with a trailing newline (curl -d @file)', async () => {
      const answer = await post({ body: `${rx.link}\n`, contentType: 'application/json' });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.json.prescription_id, rx.id);
      assert.equal(answer.json.valid, true);
    });

    it('reads the link as a JSON string', async () => {
      const answer = await post(json(rx.link));
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.json.valid, true);
    });

    it('reads the link as text/plain, with CRLF', async () => {
      const answer = await post({ body: `${rx.link}\r\n`, contentType: 'text/plain' });
      assert.equal(answer.status, 200, answer.text);
      assert.equal(answer.json.valid, true);
    });
  });

  describe('variants', () => {
    it('answers exactly the short variant without a token', async () => {
      const result = await verify(server, rx.link);
      assert.deepEqual(Object.keys(result).sort(), SHORT_KEYS);
      assert.equal(result.prescription_id, rx.id);
      assert.match(result.issued_at, ZURICH_OFFSET);
      assert.equal(result.issued_by, `${server.doctor.name} (${server.doctor.sub})`);
      assert.equal(result.valid, true);
      assert.equal(result.revoked, false);
      assert.equal(result.dispensed, false);
    });

    it('answers the variant with transactions to pharmacists and the issuer, without locked_at when unlocked', async () => {
      for (const actor of [server.pharmacist, server.pharmacist2, server.doctor]) {
        const result = await verify(server, rx.link, actor.token);
        assert.deepEqual(Object.keys(result).sort(), FULL_KEYS, actor.clientId);
        assert.equal(result.locked, false);
        assert.deepEqual(result.partial_dispensations, []);
        assert.equal(result.events.length, 1);
        assert.deepEqual(Object.keys(result.tampering_detection_result).sort(), TAMPER_KEYS);
        assert.deepEqual(result.tampering_detection_result, {
          prescription_url_valid: true,
          prescription_hash_check_passed: true,
          logs_check_passed: true,
        });
        assert.match(result.expires_at, UTC_FRACTIONAL_OR_WHOLE);
        assert.equal(Date.parse(result.expires_at), Date.parse(rxDoc.Dt as string) + VALIDITY_MS);
        assert.equal(result.expired, false);
        // The sample: MED_A NbPack 1, Rep 0, Subs 0; MED_B NbPack 2, Rep 3, Subs 1.
        assert.deepEqual(result.medicaments, [
          { id: MED_A, prescribed: 1, dispensed: 0, remaining: 1, substitution_allowed: true },
          { id: MED_B, prescribed: 8, dispensed: 0, remaining: 8, substitution_allowed: false },
        ]);
      }
    });

    it('answers exactly the short variant to a prescriber who did not issue it', async () => {
      const result = await verify(server, rx.link, server.doctor2.token);
      assert.deepEqual(result, await verify(server, rx.link));
      assert.deepEqual(Object.keys(result).sort(), SHORT_KEYS);
      assert.equal(result.valid, true);
    });

    it('accepts the oauth: prefix as well as acs:', async () => {
      const answer = await post({
        body: rx.link,
        contentType: 'text/plain',
        authorization: `Bearer oauth:${server.pharmacist.token}`,
      });
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(Object.keys(answer.json).sort(), FULL_KEYS);
    });

    it('refuses an inactive or malformed token with 401 instead of downgrading', async () => {
      for (const authorization of [
        'Bearer acs:not-an-issued-token',
        `Bearer ${server.pharmacist.token}`,
        'Bearer acs:',
        'Basic dXNlcjpwYXNz',
        'Bearer',
      ]) {
        const answer = await post({ body: rx.link, contentType: 'text/plain', authorization });
        assertError(answer, 401, 'unauthorized');
      }
    });
  });

  describe('remembered answers', () => {
    const pharmacist = {
      sub: 'HIN|pharmacist',
      name: 'Apotheke',
      role: 'pharmacist',
      clientId: 'pharmacist',
      expiresAt: 4_102_444_800,
    } as const;

    it('answers an unchanged chain and link again with the same frozen answer (SQLite), and a changed chain anew', async () => {
      const created = await createPrescription(server);
      const service = {
        verify: async (...args: Parameters<typeof server.runtime.service.verify>) =>
          (await server.runtime.service.verify(...args)).answer,
      };
      const short = await service.verify(created.link, undefined);
      const full = await service.verify(created.link, pharmacist);
      assert.ok(Object.isFrozen(short) && Object.isFrozen(full));
      // SQLite remembers a chain from its second read on (chain-memo.ts), so from here.
      const shortAgain = await service.verify(created.link, undefined);
      const fullAgain = await service.verify(created.link, pharmacist);
      assert.deepEqual(shortAgain, short);
      assert.deepEqual(fullAgain, full);
      if (server.runtime.store.engine === 'sqlite') {
        // PostgreSQL reads every chain anew, so its answers are built anew each time.
        assert.equal(await service.verify(created.link, undefined), shortAgain);
        assert.equal(await service.verify(created.link, pharmacist), fullAgain);
      }
      const dispensed = await calls(server).dispenseFull(created.id, server.pharmacist)();
      assert.equal(dispensed.status, 200, dispensed.text);
      const after = await service.verify(created.link, pharmacist);
      assert.ok('events' in after && 'events' in full);
      assert.equal(after.events.length, full.events.length + 1);
      assert.equal(after.dispensed, true);
      // Over HTTP too, byte for byte the same answer as long as nothing changes.
      const first = await post({ body: created.link, contentType: 'text/plain' });
      const second = await post({ body: created.link, contentType: 'text/plain' });
      assert.equal(first.status, 200);
      assert.equal(second.text, first.text);
      assert.equal(first.json.dispensed, true);
    });
  });

  describe('field types (seed §2.3–2.5)', () => {
    let result: JsonObject;
    let link: string;
    before(async () => {
      // Roomy: the sample forbids substituting MED_B, and this suite is about field types.
      const created = await createPrescription(server, roomyPrescription());
      const pharmacist = server.pharmacist.token;
      const call =
        (path: string, options: RequestOptions = {}) =>
        () =>
          server.request('POST', path, { token: pharmacist, ...options });
      await expectAppended(
        server,
        created.id,
        call(`/ePrescription/lock/${created.id}?reason=counter`),
        'lock',
      );
      await expectAppended(
        server,
        created.id,
        call(
          `/ePrescription/dispense/${created.id}`,
          json([
            { id: MED_A, amount: 1 },
            { id: MED_B, amount: 2, substitute: SUBSTITUTE, substitute_id_type: 2 },
          ]),
        ),
        'partial_dispense',
      );
      await expectAppended(
        server,
        created.id,
        call(`/ePrescription/unlock/${created.id}`),
        'unlock',
      );
      link = created.link;
      result = await verify(server, link, pharmacist);
    });

    it('types the top-level fields', () => {
      assert.equal(typeof result.prescription_id, 'string');
      assert.match(result.issued_at, ZURICH_OFFSET);
      assert.equal(typeof result.issued_by, 'string');
      for (const flag of ['valid', 'revoked', 'dispensed', 'locked', 'expired']) {
        assert.equal(typeof result[flag], 'boolean', flag);
      }
      assert.equal(result.valid, true);
      assert.equal(result.locked, false);
      assert.equal('locked_at' in result || 'locked_by' in result, false);
      assert.equal('dispensed_at' in result || 'dispensed_by' in result, false);
      assert.match(result.expires_at, UTC_FRACTIONAL_OR_WHOLE);
    });

    it('types the medicaments in document order, in packages (SPEC.md §10)', () => {
      assert.deepEqual(
        result.medicaments,
        [MED_A, MED_B].map((id, i) => ({
          id,
          prescribed: 10_000,
          dispensed: 1 + i,
          remaining: 10_000 - 1 - i,
          substitution_allowed: true,
        })),
      );
    });

    it('issued_at is the link time t in the service zone', () => {
      const t = Number(/&t=([0-9]+)&/.exec(link)![1]);
      assert.equal(Date.parse(result.issued_at as string), t * 1000);
    });

    it('types the partial dispensations (seed §2.4)', () => {
      assert.equal(result.partial_dispensations.length, 2);
      for (const p of result.partial_dispensations) {
        assert.deepEqual(Object.keys(p).sort(), [
          'amount',
          'dispensed_by',
          'medicine_id',
          'substitute',
          'substitute_id_type',
          'timestamp',
        ]);
        assert.equal(typeof p.amount, 'number');
        assert.match(p.timestamp, UTC_FRACTIONAL);
        assert.equal(p.dispensed_by, server.pharmacist.sub);
        assert.equal(typeof p.medicine_id, 'string');
        assert.equal(typeof p.substitute, 'string');
        assert.ok(Number.isInteger(p.substitute_id_type));
      }
    });

    it('shows the create event with prescription_hash and without hash, parent_hash, signature', () => {
      const [created] = result.events;
      assert.deepEqual(Object.keys(created).sort(), [
        'actor',
        'actor_name',
        'cancellable',
        'event_data',
        'id',
        'prescription_hash',
        'reference',
        'timestamp',
        'type',
      ]);
      assert.equal(created.type, 'create');
      assert.equal(created.reference, result.prescription_id);
      assert.deepEqual(created.event_data, {});
      assert.equal(created.actor, server.doctor.sub);
      assert.equal(created.actor_name, server.doctor.name);
      assert.equal(created.cancellable, false);
      assert.match(created.timestamp, UTC_FRACTIONAL);
      assert.equal(
        created.prescription_hash,
        createHash('sha256').update(chmedOf(link), 'utf8').digest('hex'),
      );
    });

    it('shows every later event with hash, parent_hash and an ES384 x5c signature', () => {
      const events = result.events as JsonObject[];
      assert.deepEqual(
        events.map((e) => e.type),
        ['create', 'lock', 'partial_dispense', 'unlock'],
      );
      for (const [index, e] of events.slice(1).entries()) {
        assert.equal(typeof e.id, 'string');
        assert.ok(e.id.length > 0);
        assert.equal(e.reference, result.prescription_id);
        assert.equal(typeof e.event_data, 'object');
        assert.match(e.timestamp, UTC_FRACTIONAL);
        assert.equal(e.actor, server.pharmacist.sub);
        assert.equal(e.actor_name, server.pharmacist.name);
        assert.equal(typeof e.cancellable, 'boolean');
        assert.match(e.hash, HASH);
        assert.match(e.parent_hash, HASH);
        if (index > 0) assert.equal(e.parent_hash, events[index]!.hash);
        const parts = (e.signature as string).split('.');
        assert.equal(parts.length, 3);
        for (const part of parts) assert.match(part, /^[A-Za-z0-9_-]+$/);
        const header = jwsHeader(e.signature as string);
        assert.equal(header.alg, 'ES384');
        assert.equal(header.x5c.length, 2);
        for (const cert of header.x5c) assert.equal(typeof cert, 'string');
      }
      assert.equal(new Set(events.map((e) => e.id)).size, events.length);
    });

    it('shows lock reason, dispenses and cancellable per event type', () => {
      const [, lock, partial, unlock] = result.events as JsonObject[];
      assert.deepEqual(Object.keys(lock!.event_data).sort(), ['expires_at', 'reason']);
      assert.equal(lock!.event_data.reason, 'counter');
      assert.match(lock!.event_data.expires_at, UTC_FRACTIONAL);
      assert.equal(
        Date.parse(lock!.event_data.expires_at) - Date.parse(lock!.timestamp),
        LOCK_TTL_MS,
      );
      assert.equal(lock!.cancellable, false);
      assert.equal('dispenses' in lock!, false);
      assert.deepEqual(unlock!.event_data, {});
      assert.equal(unlock!.cancellable, false);
      assert.equal(partial!.cancellable, true);
      assert.deepEqual(partial!.dispenses, [
        { id: MED_A, amount: 1 },
        { id: MED_B, amount: 2, substitute: SUBSTITUTE, substitute_id_type: 2 },
      ]);
    });
  });

  // A link whose signature fails shows its checks to the issuer (and to pharmacies that dispensed
  // or cancelled on the chain, which none has here: SPEC.md §10 "Who sees what").
  describe('refusals and tamper checks', () => {
    it('answers 404 for a well-signed link to a prescription that was never created', async () => {
      const doc = samplePrescription();
      const link = buildLink({
        prescriptionUrl: server.runtime.config.prescriptionUrl,
        chmed: encodeChmed(doc as unknown as Prescription),
        issuer: formatIssuer(server.doctor.name, server.doctor.sub),
        issuedAt: Math.floor(Date.now() / 1000),
        keyring: server.runtime.linkKeys,
      });
      assertError(await post({ body: link, contentType: 'text/plain' }), 404, 'not_found');
      assertError(
        await post({ body: link, contentType: 'text/plain', token: server.pharmacist.token }),
        404,
        'not_found',
      );
      // Its signature changed, the short answer comes from the link alone: no 404, so a bare id
      // tells nothing about the store (SPEC.md §10 "Who sees what").
      for (const token of [undefined, server.doctor2.token]) {
        const short = await verify(server, withChangedSignature(link), token);
        assert.deepEqual(Object.keys(short).sort(), SHORT_KEYS);
        assert.equal(short.prescription_id, doc.Id);
        assert.deepEqual([short.valid, short.revoked, short.dispensed], [false, false, false]);
      }
    });

    it('answers 400 for a link that does not parse or decode', async () => {
      const chmed = chmedOf(rx.link);
      for (const body of [
        'hello',
        ' ',
        'http://erx.test/rx/',
        rx.link.replace('#', '#x'),
        rx.link.replace(/&s=[0-9a-f]+$/, '&s=zz'),
        rx.link.replace(/&t=[0-9]+/, '&t=soon'),
        rx.link.replace(chmed, 'CHMED16A1!!!!'),
        rx.link.replace(chmed, `CHMED16A1${chmed.slice(9, 200)}`),
        `${rx.link}&x=1`,
      ]) {
        assertError(await post({ body, contentType: 'text/plain' }), 400, 'bad_request');
      }
      assertError(await post({ body: '', contentType: 'application/json' }), 400, 'bad_request');
      assertError(await post(json({ link: rx.link })), 400, 'bad_request');
    });

    it('reports a changed signature as invalid, with the other checks passing', async () => {
      const link = withChangedSignature(rx.link);
      const result = await verify(server, link, server.doctor.token);
      assert.equal(result.valid, false);
      assert.deepEqual(result.tampering_detection_result, {
        prescription_url_valid: false,
        prescription_hash_check_passed: true,
        logs_check_passed: true,
      });
      // Without a token, or to another prescriber, the short answer of a link whose signature
      // fails has every flag false (SPEC.md §10 "Who sees what").
      for (const token of [undefined, server.doctor2.token]) {
        const short = await verify(server, link, token);
        assert.deepEqual(Object.keys(short).sort(), SHORT_KEYS);
        assert.equal(short.prescription_id, rx.id);
        assert.deepEqual([short.valid, short.revoked, short.dispensed], [false, false, false]);
      }
    });

    it('reports a changed document (same Id) as invalid: signature and hash fail', async () => {
      const original = samplePrescription({ Id: rx.id });
      const forged = encodeChmed({ ...original, Rmk: 'forged' } as unknown as Prescription);
      const link = rx.link.replace(chmedOf(rx.link), forged);
      const result = await verify(server, link, server.doctor.token);
      assert.equal(result.valid, false);
      assert.equal(result.tampering_detection_result.prescription_url_valid, false);
      assert.equal(result.tampering_detection_result.prescription_hash_check_passed, false);
      assert.equal(result.tampering_detection_result.logs_check_passed, true);
    });

    it('reports one changed data character as invalid, or 400 when it no longer decodes', async () => {
      const chmed = chmedOf(rx.link);
      const changeAt = (index: number): string => {
        const c = chmed[index]!;
        return rx.link.replace(
          chmed,
          `${chmed.slice(0, index)}${c === 'A' ? 'B' : 'A'}${chmed.slice(index + 1)}`,
        );
      };
      // Data character 8 lies in the gzip header's MTIME, which no checksum covers: the document
      // still decodes, so only the signature and the hash can tell.
      const result = await verify(server, changeAt(9 + 8), server.doctor.token);
      assert.equal(result.prescription_id, rx.id);
      assert.equal(result.valid, false);
      assert.equal(result.tampering_detection_result.prescription_url_valid, false);
      assert.equal(result.tampering_detection_result.prescription_hash_check_passed, false);
      assert.equal(result.tampering_detection_result.logs_check_passed, true);
      // Inside the deflate stream the gzip CRC fails: the link no longer decodes.
      const answer = await post({ body: changeAt(9 + 200), contentType: 'text/plain' });
      assertError(answer, 400, 'bad_request');
    });

    it('reports a lower-case CHMED prefix (decodes alike, signed bytes differ) as invalid', async () => {
      const link = rx.link.replace('#CHMED16A1', '#chmed16a1');
      const result = await verify(server, link, server.doctor.token);
      assert.equal(result.prescription_id, rx.id);
      assert.equal(result.valid, false);
      assert.equal(result.tampering_detection_result.prescription_url_valid, false);
      assert.equal(result.tampering_detection_result.prescription_hash_check_passed, false);
    });

    it('reports a link under another base address as invalid', async () => {
      for (const base of ['https://erx.test/rx/', 'http://evil.test/rx/', 'http://erx.test/rx']) {
        const link = rx.link.replace('http://erx.test/rx/', base);
        const result = await verify(server, link, server.pharmacist.token);
        assert.equal(result.valid, false, base);
        assert.equal(result.tampering_detection_result.prescription_url_valid, false, base);
        assert.equal(result.tampering_detection_result.prescription_hash_check_passed, true, base);
        assert.equal((await verify(server, link)).valid, false, base);
      }
    });
  });
});
