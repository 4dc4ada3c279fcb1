/**
 * Decompression bombs and deep nesting (SPEC.md §9) through verify AND create:
 * gzip bombs of 4 KiB, 45 KiB (the largest that still fits a 64 KiB body as base64) and 1 MiB
 * behind `CHMED16A1` — in a link for verify, as the body for create — and nestings of 10 to
 * 100,000 levels as `CHMED16A0` JSON, as gzip, and as plain JSON bodies to dispense and create.
 * Each must be answered 4xx within 50 times an ordinary refusal of the same route measured in the
 * same run (a few hundred bytes that are not JSON: about 1 ms on an idle machine), and repeating
 * them all must not grow the heap.
 *
 * A 1 MiB bomb is over the 64 KiB body limit and is refused as 413 unread; the 4 KiB and 45 KiB
 * bombs reach the decoder and are stopped by the 256 KiB inflate cap. Times are per request,
 * after a warm-up request of the same case; the median of five is compared with the bound, so a
 * scheduling pause on a busy machine does not count as the server's cost (the worst is printed).
 */
import assert from 'node:assert/strict';
import { gunzipSync, gzipSync } from 'node:zlib';
import { before, describe, it } from 'node:test';
import { DocumentDecodeError, decodeChmed } from '../../src/chmed16a/index.js';
import { createPrescription } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import { bestMs } from '../support/timing.js';
import { gzipBomb } from './support/bombs.js';
import { nested } from './support/documents.js';
import { answerProblem, heapMb } from './support/oracle.js';
import type { FuzzAnswer } from './support/oracle.js';
import type { FuzzRequest } from './support/fuzz-request.js';
import { sendInject, sendSocket } from './support/transport.js';

/** How many ordinary refusals of the same route a bomb or nesting may cost. */
const BOUND_REFUSALS = 50;
const BODY_LIMIT = 64 * 1024;
const DEPTHS = [10, 100, 1_000, 10_000, 100_000];
const HEAP_REPEATS = 10;
const HEAP_BOUND_MB = 10;

interface Case {
  name: string;
  request: FuzzRequest;
  /** 413 when the body is over the limit, else 400. */
  expected: number;
}

const median = (xs: number[]): number =>
  [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

describe('decompression bombs and deep nesting', () => {
  const server = useTestServer();
  let dispenseId: string;
  let cases: Case[];

  function post(url: string, body: string, token?: string): FuzzRequest {
    const headers: FuzzRequest['headers'] = { 'content-type': 'application/json' };
    if (token !== undefined) headers.authorization = `Bearer acs:${token}`;
    return { family: 'bomb', method: 'POST', url, headers, body };
  }

  function link(chmed: string): string {
    return `${server.runtime.config.prescriptionUrl}#${chmed}&i=x&t=1&s=${'a'.repeat(128)}`;
  }

  /** The same CHMED16A string through verify (in a link) and create (raw and as a JSON string). */
  function chmedCases(name: string, chmed: string): Case[] {
    const verify = link(chmed);
    const asJson = JSON.stringify(chmed);
    const create = '/ePrescription/create?output-format=data';
    return [
      { name: `${name} verify`, request: post('/ePrescription/verify', verify), expected: 0 },
      { name: `${name} create`, request: post(create, chmed, server.doctor.token), expected: 0 },
      {
        name: `${name} create (JSON string)`,
        request: post(create, asJson, server.doctor.token),
        expected: 0,
      },
    ].map((c) => ({
      ...c,
      expected: Buffer.byteLength(String(c.request.body)) > BODY_LIMIT ? 413 : 400,
    }));
  }

  before(async () => {
    dispenseId = (await createPrescription(server)).id;
    cases = [];
    for (const [label, size] of [
      ['4 KiB', 4 * 1024],
      ['45 KiB', 45 * 1024],
      ['1 MiB', 1024 * 1024],
    ] as const) {
      const bomb = gzipBomb(size);
      const ratio = bomb.inflatedBytes / bomb.gzip.length;
      assert.ok(ratio >= 1000, `the ${label} bomb inflates only ${ratio.toFixed(0)}:1`);
      console.log(
        `bombs: ${label} bomb: ${bomb.gzip.length} bytes of gzip, ${bomb.inflatedBytes} inflated (${ratio.toFixed(0)}:1)`,
      );
      cases.push(...chmedCases(`gzip bomb ${label}`, `CHMED16A1${bomb.gzip.toString('base64')}`));
    }
    for (const depth of DEPTHS) {
      for (const kind of ['array', 'object'] as const) {
        const json = nested(depth, kind);
        const name = `${depth} levels of ${kind}s`;
        cases.push(...chmedCases(`${name} CHMED16A0`, `CHMED16A0${json}`));
        cases.push(
          ...chmedCases(`${name} CHMED16A1`, `CHMED16A1${gzipSync(json).toString('base64')}`),
        );
        for (const [route, url, token] of [
          ['create', '/ePrescription/create?output-format=data', server.doctor.token],
          ['dispense', `/ePrescription/dispense/${dispenseId}`, server.pharmacist.token],
        ] as const) {
          const expected = Buffer.byteLength(json) > BODY_LIMIT ? 413 : 400;
          cases.push({
            name: `${name} JSON body to ${route}`,
            request: post(url, json, token),
            expected,
          });
        }
      }
    }
  });

  function check(c: Case, answer: FuzzAnswer): void {
    assert.equal(
      answer.status,
      c.expected,
      `${c.name}: ${answer.status} ${answer.body.toString().slice(0, 200)}`,
    );
    assert.equal(answerProblem('POST', answer), undefined, c.name);
  }

  it('answers every bomb and nesting with a 4xx within 50 ordinary refusals, over inject and the socket', async () => {
    const app = server.runtime.app;
    const port = Number(new URL(server.url).port);
    const rows: string[] = [];
    const slow: string[] = [];
    let requests = 0;
    const statuses: Record<number, number> = {};
    let slowestNesting = { ms: -1, row: '' };
    /** An ordinary refusal of `c`'s route: a small body that is not JSON. */
    const ordinaryOf = (c: Case) => ({ ...c.request, body: 'not json '.repeat(40) });
    for (const c of cases) {
      check(c, await sendInject(app, c.request)); // warm-up
      await sendInject(app, ordinaryOf(c));
      // Each bomb is timed beside an ordinary refusal of its route, in turns, so that whatever
      // else the machine does weighs on both alike: the bound is a ratio of the same moments.
      const times: number[] = [];
      const ordinaryTimes: number[] = [];
      for (let i = 0; i < 5; i++) {
        let started = performance.now();
        await sendInject(app, ordinaryOf(c));
        ordinaryTimes.push(performance.now() - started);
        started = performance.now();
        const answer = await sendInject(app, c.request);
        times.push(performance.now() - started);
        check(c, answer);
      }
      check(c, await sendSocket(port, c.request));
      requests += 7;
      const m = median(times);
      const row = `${c.name}: ${c.expected}, median ${m.toFixed(1)} ms, worst ${Math.max(...times).toFixed(1)} ms`;
      if (c.name.startsWith('gzip')) rows.push(row);
      else if (m >= slowestNesting.ms) slowestNesting = { ms: m, row };
      statuses[c.expected] = (statuses[c.expected] ?? 0) + 1;
      const bound = BOUND_REFUSALS * median(ordinaryTimes);
      if (m >= bound) slow.push(`${c.name}: median ${m.toFixed(1)} ms, bound ${bound.toFixed(1)}`);
    }
    console.log(
      `bombs: ${cases.length} cases, ${requests} requests, statuses ${JSON.stringify(statuses)}\n` +
        rows.map((r) => `  ${r}\n`).join('') +
        `  nestings of ${DEPTHS.join(', ')} levels, the slowest: ${slowestNesting.row}`,
    );
    assert.deepEqual(slow, []);
    assert.ok(cases.length >= 60);
  });

  it('refuses bombs that fit the body limit at the 256 KiB inflate cap, larger ones by length', () => {
    // The baseline, in the same run: inflating the largest bomb that fits the body limit whole.
    const whole = gzipBomb(45 * 1024).gzip;
    for (const size of [4 * 1024, 45 * 1024, 1024 * 1024]) {
      const chmed = `CHMED16A1${gzipBomb(size).gzip.toString('base64')}`;
      const refusal = (): unknown => {
        try {
          decodeChmed(chmed);
          return undefined;
        } catch (error) {
          return error;
        }
      };
      const refused = refusal();
      assert.ok(refused instanceof DocumentDecodeError, String(refused));
      assert.equal(refused.reason, 'too_large');
      // Under 64 KiB of base64 the length check passes: zlib's output cap is what refused it.
      if (chmed.length < BODY_LIMIT) assert.equal(refused.detail, 'ERR_BUFFER_TOO_LARGE');
      // Both timed as the best of five, in turns, so that a collection or a busy neighbour
      // in one call does not decide the ratio.
      let ms = Infinity;
      let inflateMs = Infinity;
      for (let i = 0; i < 5; i++) {
        inflateMs = Math.min(
          inflateMs,
          bestMs(() => gunzipSync(whole), 1),
        );
        ms = Math.min(ms, bestMs(refusal, 1));
      }
      assert.ok(
        ms < inflateMs / 5,
        `decoding the ${size}-byte bomb took ${ms.toFixed(1)} ms, inflating it ${inflateMs.toFixed(1)} ms`,
      );
      console.log(
        `bombs: decodeChmed of a ${size}-byte bomb refused as too_large in ${ms.toFixed(1)} ms`,
      );
    }
  });

  it(`does not grow the heap over ${HEAP_REPEATS} rounds of every case`, async () => {
    const app = server.runtime.app;
    for (const c of cases) await sendInject(app, c.request);
    const before = heapMb();
    for (let round = 0; round < HEAP_REPEATS; round++) {
      for (const c of cases) check(c, await sendInject(app, c.request));
    }
    const afterMb = heapMb();
    console.log(
      `bombs: heap ${before.toFixed(1)} MB before, ${afterMb.toFixed(1)} MB after ` +
        `${HEAP_REPEATS * cases.length} more requests (growth ${(afterMb - before).toFixed(1)} MB)`,
    );
    assert.ok(afterMb - before < HEAP_BOUND_MB, `heap grew by ${(afterMb - before).toFixed(1)} MB`);
  });
});
