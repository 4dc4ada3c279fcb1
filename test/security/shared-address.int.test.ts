/**
 * Clients sharing an address (a NAT, a proxy, the load balancer of docs/operations.md) while one
 * of them floods erx with made-up tokens (OWASP API4). The flood uses up the address's budget of
 * failed token checks; the others' valid tokens must keep working all the same, those used before
 * and those erx has never seen (a pharmacy signing in during the flood), and the made-up ones must
 * not each cost a token check. Behind a proxy listed in `ERX_TRUST_PROXY`, the client
 * its `X-Forwarded-For` names has a budget of its own; from anyone else that header means nothing.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { assertError, createPrescription } from '../support/e2e.js';
import type { Created } from '../support/e2e.js';
import type { Answer, RequestOptions } from '../support/http.js';
import { useTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { startGarbageFlood } from './support/garbage-flood.js';
import type { Flood } from './support/garbage-flood.js';

/** Failed token checks per second and address (and anonymous calls). */
const LIMIT = 10;
const FLOOD_RATE = 200;
const VALID_CALLS = 20;
const CALL_SPACING_MS = 60;
/** The limiter's window is one second from a key's first call. */
const WINDOW_MS = 1_000;
const CLIENT_A = '203.0.113.7';
const CLIENT_B = '203.0.113.8';

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Tries of a call that the address's spent budget must refuse (see {@link whileOverBudget}). */
const BUDGET_TRIES = 3;

/** Waits until the flood is refused again (the budget of this window spent), at most 5 windows. */
async function afterRefusal(flood: Flood): Promise<void> {
  const refused = flood.statuses[429] ?? 0;
  const deadline = performance.now() + WINDOW_MS * 5;
  while ((flood.statuses[429] ?? 0) === refused && performance.now() < deadline) await pause(5);
}

/**
 * Sends `call` (try `k`) right after the flood was refused again, so the budget of the window it
 * lands in is spent, and answers the first refusal. The limiter's window may still end between
 * that refusal and the call, giving a fresh budget the flood has not yet used up: the call is then
 * tried again, at most {@link BUDGET_TRIES} times; the last answer is returned as it came. A flood
 * no longer refused within five windows does not hold the call back.
 */
async function whileOverBudget(
  flood: Flood,
  call: (k: number) => Promise<Answer>,
): Promise<Answer> {
  let answer: Answer | undefined;
  for (let k = 0; k < BUDGET_TRIES; k++) {
    await afterRefusal(flood);
    answer = await call(k);
    if (answer.status === 429) break;
  }
  return answer!;
}

const garbage = (): string => randomBytes(32).toString('base64url');

/** Token checks erx could not answer from memory (each one a call to the token service). */
async function tokenLookups(server: TestServer): Promise<number> {
  const counts = await server.runtime.metrics.tokenCache.get();
  return counts.values.find((v) => v.labels.result === 'miss')?.value ?? 0;
}

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { ERX_RATE_LIMIT_ANON: String(LIMIT), ERX_RATE_LIMIT_SUBJECT: '200', ...extra };
}

describe('one address, one flood of made-up tokens, other clients unharmed', () => {
  const server = useTestServer({ env: env() });
  let rx: Created;
  /** Tokens erx has never checked (issued, not yet used): one per fresh call, one for after. */
  let unseen: string[];
  before(async () => {
    rx = await createPrescription(server);
    // The pharmacy has used its token before, as it does all day.
    assert.equal((await verify(server.pharmacist.token)).status, 200);
    const { clientId, secret } = server.pharmacist2;
    unseen = [];
    // The token endpoint counts against the address's anonymous budget too (and the server's
    // start fetched its clients' tokens from the same address): a token refused for the budget is
    // asked for again in the next window.
    for (let i = 0; i <= VALID_CALLS; i++) unseen.push(await tokenInBudget(clientId, secret));
  });

  const tokenInBudget = async (clientId: string, secret: string): Promise<string> => {
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: clientId,
      client_secret: secret,
    });
    for (let windows = 0; ; windows++) {
      const answer = await server.request('POST', '/REST/v1/OAuth/token', {
        body: form.toString(),
        contentType: 'application/x-www-form-urlencoded',
      });
      if (answer.status === 200) return answer.json.access_token as string;
      assert.equal(answer.status, 429, answer.text);
      assert.ok(windows < 10, 'the token endpoint refused ten windows in a row');
      await pause(WINDOW_MS + 100);
    }
  };

  const verify = (token: string, options: RequestOptions = {}): Promise<Answer> =>
    server.request('POST', '/ePrescription/verify', {
      body: rx.link,
      contentType: 'text/plain',
      token,
      ...options,
    });

  it('valid lock calls keep working while the address is over its failure budget', async () => {
    const lookupsBefore = await tokenLookups(server);
    const started = performance.now();
    const flood = startGarbageFlood({
      url: server.url,
      method: 'POST',
      path: `/ePrescription/lock/${rx.id}`,
      ratePerSecond: FLOOD_RATE,
      headers: { 'x-forwarded-for': CLIENT_A },
    });
    try {
      await flood.answered(429);
      const refusedBefore = flood.statuses[429] ?? 0;
      const answers: Answer[] = [];
      for (let i = 0; i < VALID_CALLS; i++) {
        // Spread over more than one window of the limiter, as a pharmacy's calls are.
        await pause(CALL_SPACING_MS);
        const action = i % 2 === 0 ? 'lock' : 'unlock';
        answers.push(
          await server.request('POST', `/ePrescription/${action}/${rx.id}`, {
            token: server.pharmacist.token,
          }),
        );
      }
      const statuses = answers.map((a) => a.status);
      assert.deepEqual(statuses, Array(VALID_CALLS).fill(200), JSON.stringify(statuses));
      // The address was over its budget meanwhile: the flood was still being refused.
      assert.ok((flood.statuses[429] ?? 0) > refusedBefore, JSON.stringify(flood.statuses));
      // A token erx has never seen, issued to a pharmacy at the same address, is answered, each
      // sent right after the flood was refused again (the address over its budget).
      const fresh: number[] = [];
      for (let k = 0; k < VALID_CALLS; k++) {
        await afterRefusal(flood);
        fresh.push((await verify(unseen[k]!)).status);
      }
      assert.deepEqual(fresh, Array(VALID_CALLS).fill(200), JSON.stringify(fresh));
      // A made-up token of the same shape still is not (see docs/operations.md).
      const madeUp = await whileOverBudget(flood, () => verify(garbage()));
      assertError(madeUp, 429, 'too_many_requests');
      // X-Forwarded-For from a proxy nobody trusts changes nothing: same socket, same budget.
      const forwarded = await whileOverBudget(flood, () =>
        verify(garbage(), { headers: { 'x-forwarded-for': CLIENT_B } }),
      );
      assertError(forwarded, 429, 'too_many_requests');
    } finally {
      await flood.stop();
    }
    const seconds = (performance.now() - started) / 1000;
    const lookups = (await tokenLookups(server)) - lookupsBefore;
    // Made-up tokens past the budget cost no lookup: about LIMIT per window (plus those already
    // in flight when the budget ran out), not one per token.
    const bound = (LIMIT + 8) * (Math.ceil(seconds) + 1) + 2 * VALID_CALLS;
    assert.ok(lookups <= bound, `${lookups} lookups for ${flood.sent} made-up tokens`);
    console.log(
      `[security] shared address: ${flood.sent} made-up tokens in ${seconds.toFixed(1)} s ` +
        `(${JSON.stringify(flood.statuses)}), ${VALID_CALLS} valid lock calls and ${VALID_CALLS} ` +
        `calls with fresh tokens all 200, ` +
        `${lookups} token lookups`,
    );
    // Once the flood is over, a new token works.
    await pause(WINDOW_MS + 100);
    assert.equal((await verify(unseen.at(-1)!)).status, 200);
  });
});

describe('behind a trusted proxy, X-Forwarded-For names the client', () => {
  const server = useTestServer({ env: env({ ERX_TRUST_PROXY: '127.0.0.1' }) });
  let rx: Created;
  let unseenA: string;
  let unseenB: string;
  before(async () => {
    rx = await createPrescription(server);
    const { clientId, secret } = server.pharmacist2;
    [unseenA, unseenB] = [
      await server.tokenFor(clientId, secret),
      await server.tokenFor(clientId, secret),
    ];
  });

  const verifyFrom = (client: string, token: string): Promise<Answer> =>
    server.request('POST', '/ePrescription/verify', {
      body: rx.link,
      contentType: 'text/plain',
      token,
      headers: { 'x-forwarded-for': client },
    });

  it('a flood from one forwarded address does not limit another', async () => {
    const flood = startGarbageFlood({
      url: server.url,
      method: 'POST',
      path: '/ePrescription/verify',
      ratePerSecond: FLOOD_RATE,
      headers: { 'x-forwarded-for': CLIENT_A },
    });
    try {
      await flood.answered(429);
      // B's failures are its own: a bad token is 401, not 429, and a new token is checked.
      assertError(await verifyFrom(CLIENT_B, garbage()), 401, 'unauthorized');
      assert.equal((await verifyFrom(CLIENT_B, unseenB)).status, 200);
      // A is over its budget: a made-up token is refused, a fresh valid one answered.
      assertError(await verifyFrom(CLIENT_A, garbage()), 429, 'too_many_requests');
      assert.equal((await verifyFrom(CLIENT_A, unseenA)).status, 200);
    } finally {
      await flood.stop();
    }
    console.log(
      `[security] trusted proxy: ${flood.sent} made-up tokens from ${CLIENT_A} ` +
        `(${JSON.stringify(flood.statuses)}); ${CLIENT_B} unaffected`,
    );
  });
});
