/**
 * Test support: the prescription service over a SQLite store in memory, without HTTP or a socket,
 * with a prescriber, a second prescriber and two pharmacists to act as.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Principal } from '../../src/auth/index.js';
import { readPrescriptionForCreate } from '../../src/http/read-bodies.js';
import { loadConfig } from '../../src/config/index.js';
import { KeyedMutex } from '../../src/keyed-mutex.js';
import { Clock, EventVerifier } from '../../src/ledger/index.js';
import { LinkKeyring } from '../../src/link/index.js';
import type { Pki } from '../../src/pki/index.js';
import {
  IssuedAtFormat,
  PrescriptionService,
  TermsVerifier,
  SEAL_KEY_BYTES,
  VerificationCache,
  VerifiedHeads,
} from '../../src/service/index.js';
import type { CallContext, ServiceDeps } from '../../src/service/index.js';
import { openSqliteStore } from '../../src/store/sqlite/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import { samplePrescription } from './fixtures.js';
import { memoryPki } from './ledger/chain.js';
import { VerificationMemory } from '../../src/memory/verification-memory.js';

export const PRESCRIPTION_URL = 'http://localhost:8080/rx/';

function principal(sub: string, name: string, role: Principal['role']): Principal {
  return { sub, name, role, clientId: sub, expiresAt: 4_102_444_800 };
}

export const DOCTOR = principal('HIN|doctor', 'Dr. Anna Muster', 'prescriber');
export const OTHER_DOCTOR = principal('HIN|doctor2', 'Dr. Beat Beispiel', 'prescriber');
export const PHARMACIST = principal('HIN|pharmacist', 'Apotheke am Platz', 'pharmacist');
export const OTHER_PHARMACIST = principal('HIN|pharmacist2', 'Bahnhof-Apotheke', 'pharmacist');

/** A call by `who` without an `Idempotency-Key`. */
export function as(who: Principal): CallContext {
  return { principal: who };
}

/** What a service is made of, so a test can make another over the same store and keys. */
export interface ServiceParts {
  readonly store: Store;
  readonly pki: Pki;
  readonly linkKeys: LinkKeyring;
  readonly sealKey: Buffer;
}

/** What a test may set of a service beside its parts (default: the configuration's defaults). */
export type ServiceOptions = Partial<
  Pick<ServiceDeps, 'prescriptionValidityMs' | 'lockTtlMs'> & {
    /** The wall clock, unix ms: rules and event times both follow it. */
    now: () => number;
  }
>;

/** A service over `parts` with a fresh cache and verifier, as after a restart. */
export function serviceOver(
  parts: ServiceParts,
  options: ServiceOptions = {},
): {
  service: PrescriptionService;
  verifier: EventVerifier;
} {
  const defaults = loadConfig({});
  const memory = new VerificationMemory();
  const verifier = new EventVerifier(parts.pki.trustStore, memory);
  const service = new PrescriptionService({
    store: parts.store,
    appendLocks: new KeyedMutex(),
    linkKeys: parts.linkKeys,
    signer: parts.pki.signer,
    verifier,
    cache: new VerificationCache(memory),
    terms: new TermsVerifier(parts.linkKeys, memory.terms),
    verifiedHeads: new VerifiedHeads(parts.store, parts.sealKey, parts.pki.trustStore),
    prescriptionUrl: PRESCRIPTION_URL,
    issuedAt: new IssuedAtFormat('Europe/Zurich'),
    prescriptionValidityMs: options.prescriptionValidityMs ?? defaults.prescriptionValidityMs,
    lockTtlMs: options.lockTtlMs ?? defaults.lockTtlMs,
    chainBounds: defaults.chainBounds,
    clock: new Clock(options.now ?? Date.now),
    // No transparency log here: every chain is one the log has not covered yet.
    firstNotInLog: async () => undefined,
    loggedPlaces: async () => [],
  });
  return { service, verifier };
}

/** `store` with the members in `changed` in place of its own, as a test wants it seen. */
function storeWith(store: Store, changed: Partial<Store>): Store {
  return new Proxy(store, {
    get(target, key) {
      if (Object.hasOwn(changed, key)) return changed[key as keyof Store];
      const value = Reflect.get(target, key) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** How a test sets its service up: the service's options, and where its database lives. */
export type ServiceSetUp = ServiceOptions & {
  /** Keeps the database in a file (see {@link ServiceUnderTest.databaseFile}), not in memory. */
  readonly onDisk?: boolean;
};

/** What a restart in a test changes of a service's parts (see {@link ServiceUnderTest.restart}). */
export interface RestartChanges {
  readonly sealKey?: Buffer;
  readonly store?: Partial<Store>;
}

/** A service as a test acts on it: the service, its verifier and the parts below them. */
export interface ServiceUnderTest {
  readonly parts: ServiceParts;
  readonly service: PrescriptionService;
  readonly verifier: EventVerifier;
  /** The database's file, which a second connection may open; undefined for one in memory. */
  readonly databaseFile: string | undefined;
  /**
   * Another service over these parts, as after a restart: under another seal key, or over the
   * store as seen with the members in `changed.store` in place of its own, if given.
   */
  restart(changed?: RestartChanges): ReturnType<typeof serviceOver>;
}

/** Runs `body` with a service over parts of its own (in memory unless set up on disk). */
export function withService<T>(body: (s: ServiceUnderTest) => Promise<T>): Promise<T>;
/** Runs `body` with a service set up as `setUp` says. */
export function withService<T>(
  setUp: ServiceSetUp,
  body: (s: ServiceUnderTest) => Promise<T>,
): Promise<T>;
export async function withService<T>(
  first: ServiceSetUp | ((s: ServiceUnderTest) => Promise<T>),
  second?: (s: ServiceUnderTest) => Promise<T>,
): Promise<T> {
  const [{ onDisk = false, ...options }, body] =
    typeof first === 'function' ? [{}, first] : [first, second!];
  const dir = mkdtempSync(join(tmpdir(), 'erx-service-'));
  const databaseFile = onDisk ? join(dir, 'erx.db') : undefined;
  const store = openSqliteStore(databaseFile ?? ':memory:');
  try {
    const parts: ServiceParts = {
      store,
      pki: await memoryPki(),
      linkKeys: LinkKeyring.open(join(dir, 'link-keys')),
      sealKey: randomBytes(SEAL_KEY_BYTES),
    };
    return await body({
      parts,
      ...serviceOver(parts, options),
      databaseFile,
      restart: ({ sealKey = parts.sealKey, store: members = {} } = {}) =>
        serviceOver({ ...parts, sealKey, store: storeWith(store, members) }, options),
    });
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Creates the sample prescription as {@link DOCTOR}. */
export async function createSample(
  service: PrescriptionService,
): Promise<{ id: string; link: string }> {
  const doc = readPrescriptionForCreate(JSON.stringify(samplePrescription()));
  const created = await service.create(doc, as(DOCTOR), { asQrCode: false });
  return { id: created.prescriptionId, link: created.link };
}
