/**
 * Authentication and authorisation as one table (OWASP API Top 10 2023 API1
 * BOLA, API2 broken authentication, API5 broken function-level authorisation): every protected
 * route × {no token, malformed header, wrong prefix, unknown token, expired token, other role,
 * other actor} must be refused with 401 (with `WWW-Authenticate`) or 403 in the seed §7 shape,
 * and record nothing. Each target is in a state where the rightful caller succeeds, which the
 * controls at the end prove, so every refusal is owed to the credentials alone.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { TokenService } from '../../src/auth/index.js';
import { openPepper } from '../../src/server/pepper-key.js';
import { assertError, createPrescription, expectAppended, json } from '../support/e2e.js';
import type { Created } from '../support/e2e.js';
import { MED_A, roomyPrescription, samplePrescription } from '../support/fixtures.js';
import type { Answer, RequestOptions } from '../support/http.js';
import { useTestServer } from '../support/server.js';
import type { Actor } from '../support/server.js';
import { bearer, malformed, randomToken, wrongPrefix } from './support/auth-headers.js';

const ITEMS = [{ id: MED_A, amount: 1 }];

type Variant =
  | 'no token'
  | 'malformed header'
  | 'wrong prefix'
  | 'unknown token'
  | 'expired token'
  | 'other role'
  | 'other actor';

interface Case {
  route: string;
  variant: Variant;
  label: string;
  /** The Authorization header; undefined sends none. */
  authorization: string | undefined;
  headers?: Record<string, string>;
  status: 401 | 403;
}

/** A protected call, made with the given Authorization header (or none). */
interface Route {
  name: string;
  /** Whose valid token the malformed and wrong-prefix headers wrap. */
  owner: Actor;
  /** Verify answers the short variant without a header: that is not a refusal. */
  anonymousAllowed: boolean;
  /** Valid tokens that must be refused with 403. */
  forbidden: { variant: 'other role' | 'other actor'; label: string; actor: Actor }[];
  call(authorization: string | undefined, headers?: Record<string, string>): Promise<Answer>;
}

describe('authentication and authorisation table (API1, API2, API5)', () => {
  const server = useTestServer();
  /**
   * Locked by the pharmacist, with the pharmacist's cancellable dispensation `eventId`; roomy, so
   * that one more dispensation of `ITEMS` stays within its quantity (SPEC.md §10).
   */
  let rxA: Created;
  let eventId: string;
  /** Unlocked: lock target. */
  let rxB: Created;
  /** Unlocked: revoke target. */
  let rxC: Created;
  /** Revoked by the doctor with Idempotency-Key `revokeKey`. */
  let rxD: Created;
  const revokeKey = `revoke-${randomToken()}`;
  const dispenseKey = `dispense-${randomToken()}`;
  /** Ids of every document a refused create sent (none may exist afterwards). */
  const refusedCreates: string[] = [];
  const expired = new Map<string, string[]>();
  let removedClientToken: string;

  before(async () => {
    const post = (path: string, actor: Actor, options: RequestOptions = {}) =>
      server.request('POST', path, { token: actor.token, ...options });
    rxA = await createPrescription(server, roomyPrescription());
    rxB = await createPrescription(server);
    rxC = await createPrescription(server);
    rxD = await createPrescription(server);
    const dispensed = await expectAppended(
      server,
      rxA.id,
      () =>
        post(
          `/ePrescription/dispense/${rxA.id}`,
          server.pharmacist,
          json(ITEMS, { headers: { 'idempotency-key': dispenseKey } }),
        ),
      'partial_dispense',
    );
    eventId = dispensed.id as string;
    await expectAppended(
      server,
      rxA.id,
      () => post(`/ePrescription/lock/${rxA.id}`, server.pharmacist),
      'lock',
    );
    await expectAppended(
      server,
      rxD.id,
      () =>
        post(`/ePrescription/revoke/${rxD.id}`, server.doctor, {
          headers: { 'idempotency-key': revokeKey },
        }),
      'revoke',
    );

    // Expired tokens issued through the real issuing path, by a token service whose clock is
    // behind: one expired an hour ago, one a moment ago (the boundary).
    for (const actor of [server.doctor, server.pharmacist]) {
      const tokens: string[] = [];
      for (const [lifetime, behindMs] of [
        [3600, 2 * 3600_000],
        [1, 2_000],
      ] as const) {
        const past = new TokenService(server.runtime.store, openPepper(server.runtime.config), {
          tokenLifetimeSeconds: lifetime,
          now: () => Date.now() - behindMs,
        });
        const issued = await past.issueToken({
          grantType: 'client_credentials',
          clientId: actor.clientId,
          clientSecret: actor.secret,
        });
        tokens.push(issued.access_token);
      }
      expired.set(actor.clientId, tokens);
    }
    // A token whose client has been removed since.
    await server.runtime.tokens!.addClient({
      clientId: 'removed-client',
      secret: 'removed-secret-0123456789',
      role: 'pharmacist',
      name: 'Geschlossene Apotheke',
      sub: 'HIN|removed',
    });
    removedClientToken = await server.tokenFor('removed-client', 'removed-secret-0123456789');
    assert.equal(await server.runtime.tokens!.removeClient('removed-client'), true);
  });

  function routes(): Route[] {
    const post =
      (path: () => string, options: () => RequestOptions = () => ({})) =>
      (authorization: string | undefined, headers: Record<string, string> = {}) => {
        const o = options();
        return server.request('POST', path(), {
          ...o,
          headers: { ...o.headers, ...headers },
          authorization,
        });
      };
    return [
      {
        name: 'create',
        owner: server.doctor,
        anonymousAllowed: false,
        forbidden: [{ variant: 'other role', label: 'pharmacist', actor: server.pharmacist }],
        call: post(
          () => '/ePrescription/create?output-format=data',
          () => {
            const doc = samplePrescription();
            refusedCreates.push(doc.Id as string);
            return json(doc);
          },
        ),
      },
      {
        name: 'dispense',
        owner: server.pharmacist,
        anonymousAllowed: false,
        forbidden: [
          { variant: 'other role', label: 'another prescriber', actor: server.doctor2 },
          { variant: 'other actor', label: 'the issuing prescriber', actor: server.doctor },
        ],
        call: post(
          () => `/ePrescription/dispense/${rxA.id}`,
          () => json(ITEMS),
        ),
      },
      {
        name: 'revoke',
        owner: server.doctor,
        anonymousAllowed: false,
        forbidden: [
          { variant: 'other role', label: 'pharmacist', actor: server.pharmacist },
          { variant: 'other actor', label: 'another prescriber', actor: server.doctor2 },
        ],
        call: post(() => `/ePrescription/revoke/${rxC.id}`),
      },
      {
        name: 'cancel',
        owner: server.pharmacist,
        anonymousAllowed: false,
        forbidden: [
          { variant: 'other role', label: 'the issuing prescriber', actor: server.doctor },
          { variant: 'other actor', label: 'another pharmacist', actor: server.pharmacist2 },
        ],
        call: post(() => `/ePrescription/cancel/${rxA.id}/event/${eventId}`),
      },
      {
        name: 'lock',
        owner: server.pharmacist,
        anonymousAllowed: false,
        forbidden: [
          { variant: 'other actor', label: 'a prescriber not the issuer', actor: server.doctor2 },
        ],
        call: post(() => `/ePrescription/lock/${rxB.id}?reason=counter`),
      },
      {
        name: 'unlock',
        owner: server.pharmacist,
        anonymousAllowed: false,
        forbidden: [
          { variant: 'other role', label: 'a prescriber not the issuer', actor: server.doctor2 },
          { variant: 'other actor', label: 'another pharmacist', actor: server.pharmacist2 },
        ],
        call: post(() => `/ePrescription/unlock/${rxA.id}`),
      },
      {
        name: 'verify',
        owner: server.pharmacist,
        anonymousAllowed: true,
        forbidden: [],
        call: post(
          () => '/ePrescription/verify',
          () => ({ body: rxA.link, contentType: 'text/plain' }),
        ),
      },
    ];
  }

  function casesOf(route: Route): Case[] {
    const c = (variant: Variant, label: string, authorization: string | undefined): Case => ({
      route: route.name,
      variant,
      label,
      authorization,
      status: 401,
    });
    const cases: Case[] = [];
    if (!route.anonymousAllowed) cases.push(c('no token', 'no Authorization header', undefined));
    for (const [label, header] of malformed(route.owner))
      cases.push(c('malformed header', label, header));
    for (const [label, header] of wrongPrefix(route.owner))
      cases.push(c('wrong prefix', label, header));
    cases.push(c('unknown token', 'random acs: token', bearer(randomToken())));
    cases.push(c('unknown token', 'random oauth: token', `Bearer oauth:${randomToken()}`));
    cases.push(c('unknown token', 'token of a removed client', bearer(removedClientToken)));
    const [hourAgo, momentAgo] = expired.get(route.owner.clientId)!;
    cases.push(c('expired token', 'expired an hour ago', bearer(hourAgo!)));
    cases.push(c('expired token', 'expired a moment ago', `Bearer oauth:${momentAgo!}`));
    for (const f of route.forbidden) {
      cases.push({ ...c(f.variant, f.label, bearer(f.actor.token)), status: 403 });
    }
    return cases;
  }

  /** Every event of the four prescriptions, and every refused create that got stored. */
  async function recorded(): Promise<number> {
    let total = 0;
    for (const rx of [rxA, rxB, rxC, rxD])
      total += ((await server.runtime.store.readChain(rx.id))?.state.events ?? []).length;
    for (const id of refusedCreates) {
      if ((await server.runtime.store.readChain(id))?.state.prescription !== undefined)
        total += 1000;
    }
    return total;
  }

  it('refuses every case with 401/403 in the error shape and records nothing', async () => {
    const all = routes();
    const table: { route: Route; c: Case }[] = all.flatMap((route) =>
      casesOf(route).map((c) => ({ route, c })),
    );
    // An Idempotency-Key another actor used for the same request is no way around the owner
    // check: the first answer is never replayed to someone else (SPEC.md §5).
    const revoke = (id: string) => (authorization: string | undefined) =>
      server.request('POST', `/ePrescription/revoke/${id}`, {
        authorization,
        headers: { 'idempotency-key': revokeKey },
      });
    table.push({
      route: { ...all[2]!, call: revoke(rxD.id) },
      c: {
        route: 'revoke',
        variant: 'other actor',
        label: "another prescriber repeating the issuer's Idempotency-Key",
        authorization: bearer(server.doctor2.token),
        status: 403,
      },
    });
    table.push({
      route: all[1]!,
      c: {
        route: 'dispense',
        variant: 'other role',
        label: "a prescriber repeating the pharmacist's Idempotency-Key",
        authorization: bearer(server.doctor2.token),
        headers: { 'idempotency-key': dispenseKey },
        status: 403,
      },
    });

    const failures: string[] = [];
    const byStatus = { 401: 0, 403: 0 };
    const variants = new Set<string>();
    let refused = 0;
    for (const { route, c } of table) {
      const before = await recorded();
      const answer = await route.call(c.authorization, c.headers);
      const after = await recorded();
      const what = `${c.route} / ${c.variant} / ${c.label}`;
      try {
        assertError(answer, c.status, c.status === 401 ? 'unauthorized' : 'forbidden');
        assert.equal(after, before, 'something was recorded');
        refused += 1;
        byStatus[c.status] += 1;
        variants.add(`${c.route}:${c.variant}`);
      } catch (error) {
        failures.push(`${what}: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    console.log(
      `[security] auth table: ${table.length} cases over ${all.length} routes, ${refused} refused ` +
        `(401: ${byStatus[401]}, 403: ${byStatus[403]}), ${failures.length} not refused correctly`,
    );
    assert.deepEqual(failures, []);
    assert.equal(refused, table.length);
    // Every route met every column that applies to it.
    for (const route of all) {
      const expected: Variant[] = route.anonymousAllowed
        ? ['malformed header', 'wrong prefix', 'unknown token', 'expired token']
        : ['no token', 'malformed header', 'wrong prefix', 'unknown token', 'expired token'];
      for (const v of expected) assert.ok(variants.has(`${route.name}:${v}`), `${route.name} ${v}`);
    }
  });

  it('accepts the rightful caller on the same targets (the controls)', async () => {
    const ok = async (call: () => Promise<Answer>, id: string, type: string): Promise<void> => {
      await expectAppended(server, id, call, type);
    };
    const as =
      (actor: Actor, path: string, options: RequestOptions = {}) =>
      () =>
        server.request('POST', path, { token: actor.token, ...options });
    const created = await server.request(
      'POST',
      '/ePrescription/create?output-format=data',
      json(samplePrescription(), { token: server.doctor.token }),
    );
    assert.equal(created.status, 200, created.text);
    await ok(
      as(server.pharmacist, `/ePrescription/dispense/${rxA.id}`, json(ITEMS)),
      rxA.id,
      'partial_dispense',
    );
    await ok(
      as(server.pharmacist, `/ePrescription/cancel/${rxA.id}/event/${eventId}`),
      rxA.id,
      'cancel',
    );
    await ok(as(server.pharmacist, `/ePrescription/unlock/${rxA.id}`), rxA.id, 'unlock');
    await ok(as(server.pharmacist, `/ePrescription/lock/${rxB.id}?reason=counter`), rxB.id, 'lock');
    await ok(as(server.doctor, `/ePrescription/revoke/${rxC.id}`), rxC.id, 'revoke');
    const verified = await server.request('POST', '/ePrescription/verify', {
      body: rxA.link,
      contentType: 'text/plain',
      authorization: `Bearer oauth:${server.pharmacist.token}`,
    });
    assert.equal(verified.status, 200, verified.text);
    assert.ok(Array.isArray(verified.json.events));
    console.log('[security] auth table controls: 7 rightful calls accepted');
  });
});
