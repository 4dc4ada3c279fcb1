/**
 * Ledger microbenchmark: appends/s and chain verifications/s, cold and memoised,
 * next to raw ES384 sign/verify rates measured in the same run, plus how much of an ES384
 * signature runs on the main thread (the worker-pool question).
 *
 *   npx tsx bench/ledger.ts           default run (~25 s)
 *   npx tsx bench/ledger.ts --quick   smoke run (~4 s)
 */
import { randomUUID, sign as signSync } from 'node:crypto';
import { KeyObject } from 'node:crypto';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { Clock, EventVerifier, appendEvent, verifyChain } from '../src/ledger/index.js';
import type { LedgerRecord, NewEvent, SignedEvent } from '../src/ledger/index.js';
import { MemoryPkiStorage, SignPool, openPki } from '../src/pki/index.js';
import type { Signer } from '../src/pki/index.js';
import { VerificationMemory } from '../src/memory/verification-memory.js';

const clock = new Clock();

const quick = process.argv.includes('--quick');
const SLICE_MS = quick ? 300 : 2_000;
const CONCURRENCY = 64;
const CHAIN_LENGTH = 10;
const ES384 = { name: 'ECDSA', hash: 'SHA-384' } as const;

interface Measure {
  opsPerSecond: number;
  /** Main-thread busy time per operation, microseconds (event-loop utilisation × time ÷ ops). */
  mainThreadMicros: number;
  /** Worst event-loop delay seen while measuring, milliseconds; `undefined` if the loop never ran. */
  maxDelayMs: number | undefined;
}

/** Runs `batch` (which reports how many operations it did) for a time slice. */
async function measure(batch: () => Promise<number>): Promise<Measure> {
  await batch();
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const elu = performance.eventLoopUtilization();
  const start = performance.now();
  let ops = 0;
  while (performance.now() - start < SLICE_MS) ops += await batch();
  const seconds = (performance.now() - start) / 1000;
  const used = performance.eventLoopUtilization(elu);
  histogram.disable();
  return {
    opsPerSecond: ops / seconds,
    mainThreadMicros: (used.active * 1000) / ops,
    maxDelayMs: histogram.count === 0 ? undefined : histogram.max / 1e6,
  };
}

function times<T>(count: number, make: () => Promise<T>): Promise<T[]> {
  return Promise.all(Array.from({ length: count }, make));
}

const rate = (m: Measure): string => `${Math.round(m.opsPerSecond).toLocaleString('en')}/s`;
const row = (label: string, m: Measure, note = ''): void => {
  const main = `${m.mainThreadMicros.toFixed(1)} µs main thread/op`;
  const delay =
    m.maxDelayMs === undefined
      ? 'event loop never ran'
      : `max loop delay ${m.maxDelayMs.toFixed(1)} ms`;
  console.log(`${label.padEnd(44)} ${rate(m).padStart(11)}   ${main.padEnd(26)} ${delay}${note}`);
};
const ratio = (a: Measure, b: Measure): string =>
  ` (${(a.opsPerSecond / b.opsPerSecond).toFixed(2)}× raw)`;

function event(index: number, reference: string): NewEvent {
  if (index === 0) {
    return {
      type: 'create',
      reference,
      actor: 'HIN|dr',
      actor_name: 'Dr. A',
      prescription_hash: 'a'.repeat(64),
    };
  }
  return {
    type: 'partial_dispense',
    reference,
    actor: 'HIN|apotheke',
    actor_name: 'Apotheke',
    dispenses: [{ id: '7680123450123', amount: 1, substitute: 'Generikum', substitute_id_type: 2 }],
  };
}

async function chainOf(signer: Signer): Promise<{ id: string; events: SignedEvent[] }> {
  const id = randomUUID();
  const events: SignedEvent[] = [];
  for (let i = 0; i < CHAIN_LENGTH; i++)
    events.push(await appendEvent(events.at(-1), event(i, id), signer, clock));
  return { id, events };
}

async function main(pool: SignPool): Promise<void> {
  const pki = await openPki({ storage: new MemoryPkiStorage(), pool });
  const key = await pki.signer.keyAt(new Date());
  // Every signing thread started and loaded before anything is measured, as `erx serve` does.
  pool.start();
  await Promise.all(Array.from({ length: pool.size }, () => pool.sign(key.privateKey, '', '')));
  const keys = await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-384' }, true, [
    'sign',
    'verify',
  ]);
  const data = new TextEncoder().encode('f'.repeat(64));
  const signature = await crypto.subtle.sign(ES384, keys.privateKey, data);
  const privateObject = KeyObject.from(keys.privateKey);

  console.log(
    `ledger bench (${quick ? 'quick' : 'default'}: ${SLICE_MS} ms per line, concurrency ${CONCURRENCY}, chains of ${CHAIN_LENGTH})`,
  );
  console.log(
    `node ${process.version}, libuv threadpool ${process.env.UV_THREADPOOL_SIZE ?? '4 (default)'}\n`,
  );

  const rawSignSeq = await measure(
    async () => (await crypto.subtle.sign(ES384, keys.privateKey, data), 1),
  );
  const rawSign = await measure(
    async () =>
      (await times(CONCURRENCY, () => crypto.subtle.sign(ES384, keys.privateKey, data))).length,
  );
  const syncSign = await measure(async () => {
    for (let i = 0; i < CONCURRENCY; i++)
      signSync('sha384', data, { key: privateObject, dsaEncoding: 'ieee-p1363' });
    return CONCURRENCY;
  });
  const rawVerify = await measure(
    async () =>
      (await times(CONCURRENCY, () => crypto.subtle.verify(ES384, keys.publicKey, signature, data)))
        .length,
  );
  row('raw ES384 sign, WebCrypto, one at a time', rawSignSeq);
  row('raw ES384 sign, WebCrypto, concurrent', rawSign);
  row('raw ES384 sign, node:crypto sync (blocking)', syncSign);
  row('raw ES384 verify, WebCrypto, concurrent', rawVerify);
  console.log('');

  let head: SignedEvent | undefined;
  const reference = randomUUID();
  const appendSeq = await measure(async () => {
    head = await appendEvent(head, event(head === undefined ? 0 : 1, reference), pki.signer, clock);
    return 1;
  });
  const appendConcurrent = await measure(
    async () =>
      (
        await times(CONCURRENCY, () =>
          appendEvent(undefined, event(0, randomUUID()), pki.signer, clock),
        )
      ).length,
  );
  row('appendEvent, one chain, sequential', appendSeq, ratio(appendSeq, rawSignSeq));
  row(
    'appendEvent, independent chains, concurrent',
    appendConcurrent,
    ratio(appendConcurrent, rawSign),
  );

  const chains = await times(quick ? 20 : 100, () => chainOf(pki.signer));
  const verifyAll = async (verifier: EventVerifier): Promise<number> => {
    const results = await Promise.all(
      chains.map((c) =>
        verifyChain(
          {
            prescriptionId: c.id,
            events: c.events as LedgerRecord[],
            headHash: c.events.at(-1)?.hash ?? '',
          },
          verifier,
        ),
      ),
    );
    if (results.some((r) => !r.ok)) throw new Error('bench chain failed to verify');
    return chains.length * CHAIN_LENGTH;
  };
  let publicKeyOps = 0;
  let verifiedEvents = 0;
  const cold = await measure(async () => {
    const verifier = new EventVerifier(pki.trustStore, new VerificationMemory());
    const n = await verifyAll(verifier);
    publicKeyOps += verifier.publicKeyOperations;
    verifiedEvents += n;
    return n;
  });
  const warm = new EventVerifier(pki.trustStore, new VerificationMemory());
  await verifyAll(warm);
  const warmOps = warm.publicKeyOperations;
  const memo = await measure(() => verifyAll(warm));
  row('verifyChain, cold (events)', cold, ratio(cold, rawVerify));
  row('verifyChain, memoised (events)', memo, ratio(memo, rawVerify));
  console.log(
    `${'  chains of 10 verified/s: cold'.padEnd(44)} ${Math.round(cold.opsPerSecond / CHAIN_LENGTH)
      .toLocaleString('en')
      .padStart(9)}/s,` +
      ` memoised ${Math.round(memo.opsPerSecond / CHAIN_LENGTH).toLocaleString('en')}/s`,
  );
  console.log(
    `  public-key operations per event: cold ${(publicKeyOps / verifiedEvents).toFixed(2)}, memoised ${(warm.publicKeyOperations - warmOps).toString()} in total`,
  );
  console.log(`\nsigning leaf valid until ${key.notAfter.toISOString()}`);
}

// Appends sign on the service's signing threads, as in a running erx.
const pool = new SignPool();
try {
  await main(pool);
} finally {
  await pool.close();
}
