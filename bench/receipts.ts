/**
 * Receipt verification microbenchmark: receipts verified offline per CPU-second (one core),
 * target ≥ 1,000/s. A log of events signed by one ledger leaf (as a day of erx's events is) is
 * grown with every checkpoint cosigned by three witnesses; every event's receipt (tlog-proof with
 * its JWS) is then verified by one `ReceiptVerifier`, one at a time, under the log key and 2 of
 * the 3 witnesses, as an auditor holding many receipts would. Two logs: a checkpoint every 16
 * events (receipts share checkpoints, which the verifier opens once) and a checkpoint per event
 * (every receipt opens its own). The rate is receipts per second of this process's CPU time (all
 * its threads, so WebCrypto's pool counts); the wall-clock rate is printed beside it.
 *
 *   npx tsx bench/receipts.ts            default run (two figures, 10 s of measuring each)
 *   npx tsx bench/receipts.ts --quick    3 s each
 *   npx tsx bench/receipts.ts --check    builds a small log and verifies each receipt once
 */
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { sha256Hex, signEventHash } from '../src/ledger/index.js';
import { MemoryPkiStorage, openPki } from '../src/pki/index.js';
import {
  cosignerVerifierKey,
  ed25519CosignatureVerifier,
  ed25519Cosigner,
  ed25519NoteSigner,
  ed25519NoteVerifier,
  ed25519VerifierKey,
  eventLeafHash,
  formatCheckpoint,
  formatTlogProof,
  proveInclusion,
  signNote,
  storedHashesForRecord,
  treeHash,
} from '../src/tlog/index.js';
import type { HashReader, NoteSigner } from '../src/tlog/index.js';
import { ReceiptVerifier } from '../src/transparency/verify-receipt.js';

const check = process.argv.includes('--check');
const quick = process.argv.includes('--quick');
const EVENTS = check ? 50 : 4_000;
const PER_CHECKPOINT = 16;
const MEASURE_MS = quick ? 3_000 : 10_000;
const TARGET = 1_000;
const ORIGIN = 'bench.erx.test/log';

/** A log's stored hashes in one array (Go's storage order), as the store keeps them. */
function memoryLog(): { hashes: Buffer[]; reader: HashReader } {
  const hashes: Buffer[] = [];
  return { hashes, reader: async (indexes) => indexes.map((i) => hashes[i]!) };
}

/** Signs `count` event hashes, grows the log, and answers each event's cosigned receipt. */
async function buildReceipts(count: number, perCheckpoint: number) {
  const pki = await openPki({ storage: new MemoryPkiStorage() });
  const key = await pki.signer.keyAt(new Date());
  const logKey = generateKeyPairSync('ed25519').privateKey;
  const logSigner = ed25519NoteSigner(ORIGIN, logKey);
  const witnessKeys = [1, 2, 3].map(() => generateKeyPairSync('ed25519').privateKey);
  const cosigners: NoteSigner[] = witnessKeys.map((k, i) => ed25519Cosigner(`w${i + 1}.test`, k));
  const log = memoryLog();
  const jwss: string[] = [];
  const checkpoints: { size: number; note: string }[] = [];
  for (let n = 0; n < count; n++) {
    const hash = sha256Hex(`bench event ${n}`);
    jwss.push(await signEventHash(hash, key));
    log.hashes.push(...(await storedHashesForRecord(n, eventLeafHash(hash), log.reader)));
    if ((n + 1) % perCheckpoint === 0 || n + 1 === count) {
      const size = n + 1;
      const text = formatCheckpoint({
        origin: ORIGIN,
        size,
        root: await treeHash(size, log.reader),
      });
      checkpoints.push({ size, note: await signNote(text, [logSigner, ...cosigners]) });
    }
  }
  const receipts: string[] = [];
  for (let index = 0; index < count; index++) {
    const head = checkpoints.find((c) => c.size > index)!;
    const proof = await proveInclusion(head.size, index, log.reader);
    const extra = Buffer.from(jwss[index]!);
    receipts.push(formatTlogProof({ extra, index, proof, checkpoint: head.note }));
  }
  const verifier = new ReceiptVerifier({
    trustStore: pki.trustStore,
    logKeys: [ed25519NoteVerifier(ed25519VerifierKey(ORIGIN, logKey))],
    witnesses: witnessKeys.map((k, i) =>
      ed25519CosignatureVerifier(cosignerVerifierKey(`w${i + 1}.test`, k)),
    ),
    minWitnesses: 2,
  });
  return { receipts, verifier };
}

/** Verifies the receipts one at a time for the measuring time: receipts per CPU-second and wall. */
async function measure(receipts: string[], verifier: ReceiptVerifier) {
  // Warm-up: the leaf's validation is remembered, as for every receipt of a day's events.
  for (const r of receipts.slice(0, 200)) await verifier.verify(r);
  const cpu = process.cpuUsage();
  const start = performance.now();
  let done = 0;
  while (performance.now() - start < MEASURE_MS) {
    await verifier.verify(receipts[(200 + done) % receipts.length]!);
    done++;
  }
  const wallSeconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const cpuSeconds = (used.user + used.system) / 1e6;
  return { perCpuSecond: done / cpuSeconds, perWallSecond: done / wallSeconds, done, cpuSeconds };
}

function line(label: string, m: Awaited<ReturnType<typeof measure>>): void {
  console.log(
    `  ${label.padEnd(36)} ${Math.round(m.perCpuSecond).toLocaleString('en').padStart(6)} per ` +
      `CPU-second (one core), ${Math.round(m.perWallSecond).toLocaleString('en')}/s wall clock, ` +
      `${((m.cpuSeconds / m.done) * 1e6).toFixed(0)} µs CPU each, ratio ` +
      `${(m.perCpuSecond / TARGET).toFixed(2)} (target ≥ ${TARGET.toLocaleString('en')}/s: ` +
      `${m.perCpuSecond >= TARGET ? 'met' : 'not met'})`,
  );
}

async function main(): Promise<void> {
  const shared = await buildReceipts(EVENTS, PER_CHECKPOINT);
  const alone = await buildReceipts(EVENTS, 1);
  if (check) {
    for (const r of shared.receipts) await shared.verifier.verify(r);
    for (const r of alone.receipts) await alone.verifier.verify(r);
    console.log(`receipts: ${shared.receipts.length + alone.receipts.length} built and verified`);
    return;
  }
  console.log(
    `receipt verification (${quick ? 'quick' : 'default'}; ${EVENTS} receipts of one leaf, ` +
      `2 of 3 witnesses, one at a time), node ${process.version}`,
  );
  line(
    `a checkpoint every ${PER_CHECKPOINT} events`,
    await measure(shared.receipts, shared.verifier),
  );
  line('a checkpoint per event (none shared)', await measure(alone.receipts, alone.verifier));
  // The floor of the figure: each receipt's JWS is one ES384 verification.
  const raw = rawEs384Verify();
  console.log(
    `  ${'raw ES384 verify, node:crypto'.padEnd(36)} ${Math.round(raw).toLocaleString('en').padStart(6)} ` +
      `per CPU-second (one core): the most receipts one core could verify`,
  );
}

/** ES384 verifications per CPU-second on this thread (node:crypto, blocking), for a while. */
function rawEs384Verify(): number {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' });
  const data = Buffer.from('f'.repeat(64));
  const options = { dsaEncoding: 'ieee-p1363' } as const;
  const signature = sign('sha384', data, { key: privateKey, ...options });
  const cpu = process.cpuUsage();
  const start = performance.now();
  let done = 0;
  while (performance.now() - start < MEASURE_MS / 2) {
    if (!verify('sha384', data, { key: publicKey, ...options }, signature)) throw new Error('raw');
    done++;
  }
  const used = process.cpuUsage(cpu);
  return done / ((used.user + used.system) / 1e6);
}

await main();
