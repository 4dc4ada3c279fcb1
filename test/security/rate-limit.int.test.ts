/**
 * Rate limits (OWASP API4; SPEC.md §9), configured low: per token subject (two
 * tokens of one client share the budget, another subject has its own), per address for
 * anonymous calls (verify, and the token endpoint where client secrets could be guessed), and
 * per address for failed token checks (a guessed token must cost the guesser a budget too).
 * Refusals are 429 with `Retry-After` in the seed §7 shape.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { assertError, createPrescription } from '../support/e2e.js';
import type { Created } from '../support/e2e.js';
import type { Answer, RequestOptions } from '../support/http.js';
import { useTestServer } from '../support/server.js';

/** Calls per second and key; the four tokens of the test server come from one address. */
const LIMIT = 6;
const BURST = LIMIT + 4;
/** The limiter's window is one second from a key's first call: wait it out between tests. */
const WINDOW_MS = 1_000;

const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function assertTooMany(answer: Answer): void {
  assertError(answer, 429, 'too_many_requests');
  const retryAfter = Number(answer.headers.get('retry-after'));
  assert.ok(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 1,
    `Retry-After: ${answer.headers.get('retry-after')}`,
  );
}

/** Statuses of `answers`, counted. */
function tally(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

describe('rate limits (API4)', () => {
  const limit = String(LIMIT);
  const server = useTestServer({
    env: { ERX_RATE_LIMIT_SUBJECT: limit, ERX_RATE_LIMIT_ANON: limit },
  });
  let rx: Created;
  before(async () => {
    rx = await createPrescription(server);
  });

  const verify = (options: RequestOptions = {}): Promise<Answer> =>
    server.request('POST', '/ePrescription/verify', {
      body: rx.link,
      contentType: 'text/plain',
      ...options,
    });

  it('per token subject: two tokens of one client share the budget; others keep theirs', async () => {
    const second = await server.tokenFor(server.doctor.clientId, server.doctor.secret);
    await pause(WINDOW_MS + 100);
    const tokens = [server.doctor.token, second];
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) => verify({ token: tokens[i % 2]! })),
    );
    const counts = tally(answers);
    assert.deepEqual(counts, { 200: LIMIT, 429: BURST - LIMIT }, JSON.stringify(counts));
    for (const a of answers.filter((a) => a.status === 429)) assertTooMany(a);
    // Both tokens are refused now, another subject and anonymous callers are not.
    for (const token of tokens) assertTooMany(await verify({ token }));
    assert.equal((await verify({ token: server.doctor2.token })).status, 200);
    assert.equal((await verify({ token: server.pharmacist.token })).status, 200);
    assert.equal((await verify()).status, 200);
    // Mutating calls draw on the same budget.
    assertTooMany(
      await server.request('POST', `/ePrescription/revoke/${rx.id}`, { token: second }),
    );
    assert.equal(((await server.runtime.store.readChain(rx.id))?.state.events ?? []).length, 1);
    console.log(
      `[security] rate limit per subject: ${BURST} calls with 2 tokens of one client, ` +
        `${counts[200]} accepted, ${counts[429]} × 429; other subjects unaffected`,
    );
  });

  it('per address for anonymous verify, whatever X-Forwarded-For says', async () => {
    await pause(WINDOW_MS + 100);
    const answers = await Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        verify({ headers: { 'x-forwarded-for': `203.0.113.${i + 1}` } }),
      ),
    );
    const counts = tally(answers);
    assert.deepEqual(counts, { 200: LIMIT, 429: BURST - LIMIT }, JSON.stringify(counts));
    for (const a of answers.filter((a) => a.status === 429)) assertTooMany(a);
    // Authenticated callers from the same address have their own budget.
    assert.equal((await verify({ token: server.pharmacist2.token })).status, 200);
    console.log(
      `[security] rate limit per address (anonymous verify): ${BURST} calls, ` +
        `${counts[200]} accepted, ${counts[429]} × 429`,
    );
  });

  it('per address on the token endpoint: client secrets cannot be guessed freely', async () => {
    await pause(WINDOW_MS + 100);
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: server.doctor.clientId,
      client_secret: 'guess',
    }).toString();
    const answers = await Promise.all(
      Array.from({ length: BURST }, () =>
        server.request('POST', '/REST/v1/OAuth/token', {
          body: form,
          contentType: 'application/x-www-form-urlencoded',
        }),
      ),
    );
    const counts = tally(answers);
    assert.deepEqual(counts, { 401: LIMIT, 429: BURST - LIMIT }, JSON.stringify(counts));
    for (const a of answers.filter((a) => a.status === 429)) assertTooMany(a);
    console.log(
      `[security] rate limit on the token endpoint: ${BURST} guesses, ${counts[401]} × 401, ` +
        `${counts[429]} × 429`,
    );
  });

  it('per address for failed token checks: unknown tokens are not free to try', async () => {
    await pause(WINDOW_MS + 100);
    const answers: Answer[] = [];
    // One after another, so that each failure is counted before the next check.
    for (let i = 0; i < BURST; i++) {
      answers.push(await verify({ token: randomBytes(32).toString('base64url') }));
    }
    const counts = tally(answers);
    assert.deepEqual(counts, { 401: LIMIT, 429: BURST - LIMIT }, JSON.stringify(counts));
    for (const a of answers.filter((a) => a.status === 429)) assertTooMany(a);
    await pause(WINDOW_MS + 100);
    assert.equal((await verify({ token: server.pharmacist.token })).status, 200);
    console.log(
      `[security] rate limit on failed token checks: ${BURST} unknown tokens, ` +
        `${counts[401]} × 401, ${counts[429]} × 429`,
    );
  });
});
