/**
 * HTTP fuzzing: generated and mutated requests across every route — create,
 * verify, dispense, revoke, cancel, lock, unlock, token, GetTokenInfo and unknown routes — most
 * through `app.inject()`, every 20th over a real socket. Mutations: links (bad base64, truncated
 * or concatenated gzip members, wrong prefixes, huge `t`, non-hex `s`, unicode in `i`, random
 * edits, well-signed hostile documents), dispense and create bodies (types, nulls, huge numbers,
 * 10,000 items, duplicate keys, `__proto__`/`constructor`, deep nesting), content types, empty
 * and oversized bodies, query strings, Authorization, traceparent and Idempotency-Key values.
 *
 * Passes when no answer is a 5xx, every error is in the seed §7 shape (SPEC.md §8), the server
 * still answers `/healthz` over the socket, RSS grows by less than 50 MB (and the heap by less
 * than 10 MB) after a warm-up, and no built-in prototype gained a property.
 *
 * Bounded by default: 100,000 requests. Longer on demand, and reproducible from the printed seed:
 *   ERX_FUZZ_REQUESTS=1000000 ERX_FUZZ_SEED=<seed> node scripts/run-tests.mjs test/fuzz/http-fuzz
 * ERX_FUZZ_SOCKET_EVERY=<n> sends every n-th request over the socket (default 20).
 * ERX_FUZZ_PROCESSES=<n> splits the run over n processes, each with a server of its own (default
 * 2, one per core); request i is the same for a seed however the run is split. The loop runs in
 * child processes (`support/http-fuzz-child.ts`), see there why. `.solo.`: it keeps both cores
 * busy, so it runs alone (scripts/run-tests.mjs), neither slowed by nor slowing the timed suites.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { REPORT_MARKER } from './support/http-fuzz-loop.js';
import type { FuzzReport } from './support/http-fuzz-loop.js';
import { fuzzSeed } from './support/prng.js';
import { nodeArgs } from '../support/modules.js';

const REQUESTS = Number(process.env.ERX_FUZZ_REQUESTS ?? 100_000);
const SOCKET_EVERY = Number(process.env.ERX_FUZZ_SOCKET_EVERY ?? 20);
const PROCESSES = Number(process.env.ERX_FUZZ_PROCESSES ?? 2);
const SEED = fuzzSeed(process.env.ERX_FUZZ_SEED);
const CHILD = nodeArgs('test/fuzz/support/http-fuzz-child.ts');

/** Runs shard `shard` of the loop in a child process and answers its report. */
async function runChild(shard: number): Promise<FuzzReport> {
  const child = spawn(process.execPath, CHILD, {
    env: {
      ...process.env,
      ERX_FUZZ_REQUESTS: String(REQUESTS),
      ERX_FUZZ_SEED: String(SEED),
      ERX_FUZZ_SOCKET_EVERY: String(SOCKET_EVERY),
      ERX_FUZZ_SHARD: String(shard),
      ERX_FUZZ_SHARDS: String(PROCESSES),
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => (output += chunk));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const line = output.split('\n').find((l) => l.startsWith(REPORT_MARKER));
  assert.ok(
    line,
    `fuzz process ${shard} exited with ${code} and no report:\n${output.slice(-4000)}`,
  );
  assert.equal(code, 0);
  return JSON.parse(line.slice(REPORT_MARKER.length)) as FuzzReport;
}

/** Adds the counts of `b` into `a`. */
function addCounts(a: Record<string, number>, b: Record<string, number>): Record<string, number> {
  for (const [k, v] of Object.entries(b)) a[k] = (a[k] ?? 0) + v;
  return a;
}

describe('HTTP fuzzing', () => {
  it(`answers ${REQUESTS} generated requests with no 5xx, every error in the seed shape`, async () => {
    console.log(
      `http fuzz: seed ${SEED} (ERX_FUZZ_SEED=${SEED} reproduces), ${REQUESTS} requests ` +
        `in ${PROCESSES} processes`,
    );
    const started = performance.now();
    const reports = await Promise.all(Array.from({ length: PROCESSES }, (_, i) => runChild(i)));
    const seconds = (performance.now() - started) / 1000;
    const sum = (f: (r: FuzzReport) => number) => reports.reduce((n, r) => n + f(r), 0);
    const merge = (f: (r: FuzzReport) => Record<string, number>) =>
      reports.reduce<Record<string, number>>((m, r) => addCounts(m, f(r)), {});
    const sent = sum((r) => r.sent);
    const byClass = merge((r) => r.byClass);
    const failureCount = sum((r) => r.failureCount);
    const refused = sent - (byClass['2xx'] ?? 0) - (byClass['3xx'] ?? 0);
    const ms = Object.entries(merge((r) => r.msByRoute)).map(
      ([k, v]) => `${k} ${(v / 1000).toFixed(1)}`,
    );
    console.log(
      `http fuzz: sent ${sent} (${sum((r) => r.viaSocket)} over the socket) in ${seconds.toFixed(1)} s ` +
        `(CPU ${sum((r) => r.cpuSeconds).toFixed(1)} s); by class ${JSON.stringify(byClass)}; ` +
        `2xx ${byClass['2xx'] ?? 0}; refused ${refused}; failures ${failureCount}; ` +
        `slowest ${Math.max(...reports.map((r) => r.slowestMs)).toFixed(0)} ms`,
    );
    console.log(`http fuzz: by route ${JSON.stringify(merge((r) => r.byRoute))}`);
    console.log(
      `http fuzz: 2xx by route ${JSON.stringify(merge((r) => r.acceptedByRoute))}; ` +
        `s by route ${ms.join(', ')}`,
    );
    for (const [i, r] of reports.entries()) {
      console.log(
        `http fuzz: process ${i}: RSS growth ${r.memory.rssGrowth.toFixed(1)} MB, heap growth ` +
          `${r.memory.heapGrowth.toFixed(1)} MB after ${r.warmUp} warm-up requests; RSS ` +
          `${r.memory.rss.map(Math.round).join(' ')} MB; heap ${r.memory.heap.map(Math.round).join(' ')} MB`,
      );
    }
    if (failureCount > 0) {
      console.log(
        `http fuzz: problems ${JSON.stringify(
          merge((r) => r.problems),
          null,
          1,
        )}`,
      );
      const failures = reports.flatMap((r) => r.failures);
      console.log(
        `http fuzz: first failures (seed ${SEED}):\n${JSON.stringify(failures, null, 2)}`,
      );
    }

    assert.equal(sent, REQUESTS);
    assert.equal(failureCount, 0, `${failureCount} bad answers; seed ${SEED}`);
    assert.equal(byClass['5xx'] ?? 0, 0);
    for (const r of reports) {
      assert.equal(r.healthStatus, 200, 'the server no longer answers /healthz');
      assert.ok(r.memory.rssGrowth < 50, `RSS grew by ${r.memory.rssGrowth.toFixed(1)} MB`);
      assert.ok(r.memory.heapGrowth < 10, `the heap grew by ${r.memory.heapGrowth.toFixed(1)} MB`);
      assert.equal(r.prototypesChanged, false, 'a built-in prototype gained a property');
      assert.deepEqual(r.pollution, []);
    }
    assert.ok((byClass['2xx'] ?? 0) > 0, 'no request was accepted: the generator is broken');
  });
});
