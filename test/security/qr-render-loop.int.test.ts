/**
 * QR rendering off the event loop (SPEC.md §5 create, `size` up to 2048): a prescriber asking for
 * the largest PNG, several at once, must not stall the service. `/healthz` is polled back to back
 * while concurrent `create?size=2048` calls are answered, and each poll answers within 100 ms.
 *
 * Rendered on the event loop, one 2048-pixel PNG held it for most of a second, so the poll in
 * flight waited that long. The bound is the acceptance's 100 ms on the slowest poll of a round; a
 * busy machine (two cores, other suites running) can deschedule the process for longer now and
 * then, so a round that misses is run again, up to three rounds. Rendered on the loop, every round
 * misses by far.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PNG } from 'pngjs';
import { samplePrescription } from '../support/fixtures.js';
import type { Answer } from '../support/http.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';

/** The acceptance: `/healthz` answers within this during a 2048-pixel render. */
const HEALTHZ_BOUND_MS = 100;
const SIZE = 2048;
const CONCURRENT_CREATES = 4;
const ROUNDS = 3;
/** Pause between polls: a poller of its own would otherwise keep the event loop busy. */
const POLL_GAP_MS = 5;

/**
 * A document whose link is long (a QR code of a high version, the costliest to encode): nested
 * objects take fields the schema does not list, and random text does not compress.
 */
function largeDocument(): Record<string, unknown> {
  const doc = samplePrescription();
  const patient = doc.Patient as Record<string, unknown>;
  return { ...doc, Patient: { ...patient, Note: randomBytes(600).toString('base64') } };
}

interface Round {
  /** Latency of each `/healthz` poll, ms. */
  polls: number[];
  creates: Answer[];
}

describe('QR rendering leaves the event loop free', () => {
  let server: TestServer;
  before(async () => {
    server = await startTestServer();
  });
  after(async () => {
    await server?.close();
  });

  function createPng(): Promise<Answer> {
    return server.request('POST', `/ePrescription/create?size=${SIZE}`, {
      token: server.doctor.token,
      body: JSON.stringify(largeDocument()),
      contentType: 'application/json',
    });
  }

  /** Polls `/healthz` one call after another (a few ms apart) while {@link CONCURRENT_CREATES} creates run. */
  async function round(): Promise<Round> {
    const polls: number[] = [];
    let done = false;
    const poller = (async () => {
      while (!done) {
        const started = performance.now();
        const answer = await server.request('GET', '/healthz');
        polls.push(performance.now() - started);
        assert.equal(answer.status, 200, answer.text);
        await new Promise((resolve) => setTimeout(resolve, POLL_GAP_MS));
      }
    })();
    // The first poll is under way before the creates are sent.
    await new Promise((resolve) => setImmediate(resolve));
    const creates = await Promise.all(Array.from({ length: CONCURRENT_CREATES }, createPng));
    done = true;
    await poller;
    return { polls, creates };
  }

  it(`answers /healthz within ${HEALTHZ_BOUND_MS} ms while ${CONCURRENT_CREATES} creates render ${SIZE}-pixel PNGs`, async () => {
    // Warm-up: the render threads start at the first QR code, and the first calls compile.
    const first = await createPng();
    assert.equal(first.status, 200, first.text);

    const maxima: number[] = [];
    for (let n = 1; n <= ROUNDS; n++) {
      const { polls, creates } = await round();
      for (const answer of creates) {
        assert.equal(answer.status, 200, answer.text);
        assert.equal(answer.headers.get('content-type'), 'image/png');
        const image = PNG.sync.read(answer.bytes);
        assert.deepEqual([image.width, image.height], [SIZE, SIZE]);
      }
      assert.ok(polls.length >= 2, `only ${polls.length} polls ran during the creates`);
      const max = Math.max(...polls);
      maxima.push(max);
      console.log(
        `[security] qr render loop: round ${n}: ${polls.length} /healthz polls during ` +
          `${CONCURRENT_CREATES} creates of ${SIZE} px, slowest ${max.toFixed(1)} ms`,
      );
      if (max <= HEALTHZ_BOUND_MS) return;
    }
    assert.fail(
      `/healthz took over ${HEALTHZ_BOUND_MS} ms in every round (slowest: ` +
        `${maxima.map((m) => m.toFixed(0)).join(', ')} ms)`,
    );
  });
});
