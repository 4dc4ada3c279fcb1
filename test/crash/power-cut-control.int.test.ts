/**
 * The control run of the crash suite: the harness that finds no loss after the
 * `kill -9` rounds must be able to see one. A store opened with `synchronous=OFF` acknowledges
 * commits that are only in its WAL, unsynced; a power cut may leave the disk with the database
 * file and none of that WAL. We take exactly that disk — a copy of the file without its `-wal`,
 * made mid-storm — restart `erx serve` on it and run the same check as the rounds: it must report
 * acknowledged events missing.
 *
 * The storm runs in-process through the service API, because `synchronous=OFF` is an option of
 * `openSqliteStore` only, never configuration (the service cannot be started that way). Copying
 * the file between two awaits is a consistent snapshot: better-sqlite3 commits and checkpoints
 * synchronously on this thread. The set-up is checkpointed first (closed), so the cut takes the
 * storm's events only, not the prescriptions.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Principal } from '../../src/auth/index.js';
import { readPrescriptionForCreate } from '../../src/http/read-bodies.js';
import { loadConfig } from '../../src/config/index.js';
import { PEPPER_FILE } from '../../src/server/pepper-key.js';
import { KeyedMutex } from '../../src/keyed-mutex.js';
import { Clock, EventVerifier } from '../../src/ledger/index.js';
import { sqlitePath } from '../../src/server/open-store.js';
import { keyPaths, openKeys } from '../../src/server/runtime.js';
import {
  IssuedAtFormat,
  PrescriptionService,
  SEAL_KEY_BYTES,
  TermsVerifier,
  VerificationCache,
  VerifiedHeads,
} from '../../src/service/index.js';
import type { CallContext } from '../../src/service/index.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { startChildServer } from '../support/child-server.js';
import { samplePrescription } from '../support/fixtures.js';
import {
  DOCTOR,
  PHARMACIST,
  PRESCRIPTION_URL,
  acknowledge,
  checkAcknowledged,
  crashEnv,
  fetchToken,
  pick,
  registerClients,
  stormDispense,
} from './harness.js';
import type { Acknowledged } from './harness.js';
import { VerificationMemory } from '../../src/memory/verification-memory.js';

const root = mkdtempSync(join(tmpdir(), 'erx-crash-control-'));
after(() => rmSync(root, { recursive: true, force: true }));

function context(actor: typeof DOCTOR | typeof PHARMACIST): CallContext {
  const principal: Principal = {
    sub: actor.sub,
    name: actor.name,
    role: actor.role,
    clientId: actor.clientId,
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
  };
  return { principal };
}

async function serviceOver(dataDir: string, store: Store): Promise<PrescriptionService> {
  const { linkKeys, pki } = await openKeys(dataDir);
  const memory = new VerificationMemory();
  return new PrescriptionService({
    store,
    appendLocks: new KeyedMutex(),
    linkKeys,
    signer: pki.signer,
    verifier: new EventVerifier(pki.trustStore, memory),
    cache: new VerificationCache(memory),
    terms: new TermsVerifier(linkKeys, memory.terms),
    verifiedHeads: new VerifiedHeads(store, randomBytes(SEAL_KEY_BYTES), pki.trustStore),
    firstNotInLog: async () => undefined,
    loggedPlaces: async () => [],
    prescriptionUrl: PRESCRIPTION_URL,
    issuedAt: new IssuedAtFormat('Europe/Zurich'),
    prescriptionValidityMs: loadConfig({}).prescriptionValidityMs,
    lockTtlMs: loadConfig({}).lockTtlMs,
    chainBounds: loadConfig({}).chainBounds,
    clock: new Clock(),
  });
}

test('control: synchronous=OFF under a power cut loses acknowledged events, and the harness sees it', async () => {
  const dataDir = join(root, 'live');
  const cutDir = join(root, 'after-power-cut');
  await registerClients(dataDir);
  const file = sqlitePath(dataDir);

  const setUp = openSqliteStore(file);
  const links = new Map<string, string>();
  try {
    const service = await serviceOver(dataDir, setUp);
    for (let i = 0; i < 3; i++) {
      const created = await service.create(
        readPrescriptionForCreate(JSON.stringify(samplePrescription())),
        context(DOCTOR),
        {
          asQrCode: false,
        },
      );
      links.set(created.prescriptionId, created.link);
    }
  } finally {
    await setUp.close();
  }

  const unsafe = openSqliteStore(file, { synchronous: 'OFF' });
  const acked: Acknowledged = new Map();
  let ackedAtCut: Acknowledged | undefined;
  const cutAfter = 20 + Math.floor(Math.random() * 40);
  let count = 0;
  try {
    const service = await serviceOver(dataDir, unsafe);
    const ids = [...links.keys()];
    const worker = async (): Promise<void> => {
      while (count < cutAfter + 20) {
        const id = pick(ids);
        const event = await service.dispense(
          id,
          stormDispense(),
          { force: true },
          context(PHARMACIST),
        );
        acknowledge(acked, id, event.id);
        count += 1;
        if (ackedAtCut === undefined && count >= cutAfter) {
          // The power cut: the database file reached the disk, its WAL did not.
          mkdirSync(cutDir, { recursive: true, mode: 0o700 });
          copyFileSync(file, sqlitePath(cutDir));
          ackedAtCut = new Map([...acked].map(([key, set]) => [key, new Set(set)]));
        }
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
  } finally {
    await unsafe.close();
  }
  assert.ok(ackedAtCut !== undefined, 'the storm never reached the cut');
  const [from, to] = [keyPaths(dataDir), keyPaths(cutDir)];
  cpSync(from.linkKeys, to.linkKeys, { recursive: true });
  cpSync(from.pki, to.pki, { recursive: true });
  // The clients' secret hashes are bound to the data directory's pepper.
  copyFileSync(join(dataDir, PEPPER_FILE), join(cutDir, PEPPER_FILE));

  const server = await startChildServer(crashEnv(cutDir));
  try {
    const token = await fetchToken(server.url, PHARMACIST.clientId);
    const check = await checkAcknowledged(server.url, token, links, ackedAtCut);
    console.log(
      `crash control (sqlite synchronous=OFF, power cut without the WAL): ` +
        `${check.acknowledged} acknowledged, ${check.present} present, ${check.lost.length} lost; ` +
        `${links.size - check.broken.length} of ${links.size} chains still verify`,
    );
    assert.ok(check.lost.length > 0, 'the harness did not see the loss of the power cut');
    assert.equal(check.present + check.lost.length, check.acknowledged);
  } finally {
    await server.stop();
  }
});
