/**
 * A signing worker of the bulk loader: builds documents, signs their links (Ed25519), their
 * prescriptions' terms (the link keys, as create does) and their chains with the real ledger
 * (`appendEvent`, ES384 under the data directory's PKI), so every loaded prescription verifies,
 * and is decided on, exactly like one made through the API.
 */
import { randomUUID } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { encodeChmed } from '../src/chmed16a/index.js';
import { Clock, appendEvent, prescriptionHash } from '../src/ledger/index.js';
import type { ChainHead, NewEvent, SignedEvent } from '../src/ledger/index.js';
import { buildLink, formatIssuer } from '../src/link/index.js';
import { openKeys } from '../src/server/runtime.js';
import { expiryOf, signTerms } from '../src/service/rules/terms.js';
import type {
  LoadedChain,
  LoaderTask,
  LoaderWorkerInit,
  LoaderWorkerMessage,
} from './bulk-load-protocol.js';
import { loadSample } from './data/document.js';

const clock = new Clock();

const init = workerData as LoaderWorkerInit;
const port = parentPort!;
// Dated when its link is issued, as a document a prescriber signs and sends at once.
const sample = loadSample(new Date(init.issuedAt * 1000));
const { linkKeys, pki } = await openKeys(init.dataDir);
const issuer = formatIssuer(init.prescriber.name, init.prescriber.sub);
const expiresAt = unexpired(expiryOf(sample.document.Dt, init.validityMs, sample.medicaments));

/** The expiry of the loaded prescriptions, which erx's create would not let be past. */
function unexpired(at: number | undefined): number {
  if (at === undefined || at <= Date.now()) {
    throw new Error(`the bench document's Dt ${sample.document.Dt} gives no expiry to come`);
  }
  return at;
}

async function buildChain(events: number): Promise<LoadedChain> {
  const id = randomUUID();
  const chmed = encodeChmed({ ...sample.document, Id: id });
  const link = buildLink({
    prescriptionUrl: init.prescriptionUrl,
    chmed,
    issuer,
    issuedAt: init.issuedAt,
    keyring: linkKeys,
  });
  const create: NewEvent = {
    type: 'create',
    reference: id,
    actor: init.prescriber.sub,
    actor_name: init.prescriber.name,
    prescription_hash: prescriptionHash(chmed),
  };
  const dispense: NewEvent = {
    type: 'partial_dispense',
    reference: id,
    actor: init.pharmacist.sub,
    actor_name: init.pharmacist.name,
    dispenses: [{ id: sample.medicamentId, amount: 1 }],
  };
  const signed: SignedEvent[] = [];
  let head: ChainHead | undefined;
  for (let i = 0; i < events; i++) {
    const event = await appendEvent(head, i === 0 ? create : dispense, pki.signer, clock);
    signed.push(event);
    head = event;
  }
  const copies = {
    id,
    issuer,
    issuerActor: init.prescriber.sub,
    issuedAt: init.issuedAt,
    medicaments: sample.medicaments,
  };
  return {
    row: {
      ...copies,
      terms: signTerms(linkKeys, copies, expiresAt),
      headHash: signed[0]!.hash,
    },
    events: signed.map((e) => ({
      prescriptionId: id,
      seq: e.seq,
      id: e.id,
      parentHash: e.parentHash,
      body: e.body,
      hash: e.hash,
      signature: e.signature,
    })),
    link,
  };
}

/** Builds a task's chains, `concurrency` at a time (each chain is sequential: parent hashes). */
async function run(task: LoaderTask): Promise<LoadedChain[]> {
  const chains: LoadedChain[] = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < task.count) {
      next++;
      chains.push(await buildChain(task.events));
    }
  };
  await Promise.all(Array.from({ length: Math.min(init.concurrency, task.count) }, lane));
  return chains;
}

port.on('message', (task: LoaderTask) => {
  run(task).then(
    (chains) =>
      port.postMessage({ kind: 'done', taskId: task.taskId, chains } satisfies LoaderWorkerMessage),
    (error: unknown) =>
      port.postMessage({ kind: 'failed', message: String(error) } satisfies LoaderWorkerMessage),
  );
});
port.postMessage({ kind: 'ready' } satisfies LoaderWorkerMessage);
