/**
 * The bench's data sets: a data directory filled by the bulk loader, and a manifest of what the
 * figures send (verify links, cold links, dispense ids). Each set is built once into a cache and
 * copied into each run, so every run starts from the same untouched chains.
 *
 * Layout of a set directory: `data/` (an erx data directory) and `manifest.json`.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/index.js';
import { EventVerifier, verifyChain } from '../../src/ledger/index.js';
import { LinkKeyring, parseLink, verifyLinkSignature } from '../../src/link/index.js';
import { keyPaths, openKeys } from '../../src/server/runtime.js';
import { openStore } from '../../src/server/open-store.js';
import { TermsVerifier, readTerms } from '../../src/service/rules/terms.js';
import { LATEST_SCHEMA_VERSION } from '../../src/store/migrations.js';
import { bulkLoad } from '../bulk-load.js';
import type { LoadGroup } from '../bulk-load.js';
import { PHARMACIST, PRESCRIBER } from '../erx/clients.js';
import { BENCH_PRESCRIPTION_URL } from '../erx/instance.js';
import { VerificationMemory } from '../../src/memory/verification-memory.js';

/** Events of a chain in the verify working set: a create and nine partial dispenses. */
export const VERIFY_CHAIN_EVENTS = 10;
/** Events of every other chain: a create and four partial dispenses. */
export const BULK_CHAIN_EVENTS = 5;
/**
 * Bumped whenever what the loader writes changes: older caches are rebuilt. 2: rows with signed
 * terms, the document dated when loaded and with the dispensed medicament's larger quantity; 3:
 * each chain's head sealed, as erx's appends seal it; 4: the seal covers the terms.
 */
const LOADER_FORMAT = 4;
/** Chains and links checked before a cached set is used. */
const CHECKED_SAMPLE = 50;
/** A cached set whose prescriptions expire sooner than this is rebuilt: a run must not see them expire. */
const VALID_AT_LEAST_MS = 24 * 3600 * 1000;

export interface DatasetSpec {
  readonly name: string;
  readonly prescriptions: number;
  /** Chains of {@link VERIFY_CHAIN_EVENTS} events whose links the verify figures cycle through. */
  readonly verifySet: number;
  /** Links of chains no figure touches before the cold verify figure. */
  readonly coldLinks: number;
  /** Prescriptions the dispense figures draw on, each once until the pool wraps. */
  readonly dispenseIds: number;
}

export interface Manifest {
  readonly format: number;
  readonly schemaVersion: number;
  readonly spec: DatasetSpec;
  readonly prescriptions: number;
  readonly events: number;
  readonly verifyLinks: readonly string[];
  readonly verifyIds: readonly string[];
  readonly coldLinks: readonly string[];
  readonly dispenseIds: readonly string[];
  readonly load: { readonly seconds: number; readonly eventsPerSecond: number; readonly date: string };
}

export interface Dataset {
  /** The erx data directory the figures run on. */
  readonly dataDir: string;
  readonly manifest: Manifest;
  readonly source: 'fresh' | 'cache';
  readonly prepareSeconds: number;
}

export interface CachedSet {
  readonly directory: string;
  readonly manifest: Manifest;
  readonly source: 'fresh' | 'cache';
}

type Progress = (message: string) => void;

function groupsOf(spec: DatasetSpec): LoadGroup[] {
  const bulk = spec.prescriptions - spec.verifySet - spec.coldLinks;
  if (bulk < 1) throw new Error(`data set ${spec.name}: too few prescriptions for its pools`);
  const groups: LoadGroup[] = [
    {
      name: 'verify',
      count: spec.verifySet,
      events: VERIFY_CHAIN_EVENTS,
      keepIds: spec.verifySet,
      keepLinks: spec.verifySet,
    },
    {
      name: 'bulk',
      count: bulk,
      events: BULK_CHAIN_EVENTS,
      keepIds: spec.dispenseIds,
      keepLinks: 0,
    },
  ];
  if (spec.coldLinks > 0) {
    groups.push({
      name: 'cold',
      count: spec.coldLinks,
      events: BULK_CHAIN_EVENTS,
      keepIds: 0,
      keepLinks: spec.coldLinks,
    });
  }
  return groups;
}

/** Fills `directory/data` and writes `directory/manifest.json`. */
async function build(spec: DatasetSpec, directory: string, onProgress: Progress): Promise<Manifest> {
  rmSync(directory, { recursive: true, force: true });
  mkdirSync(directory, { recursive: true });
  let reported = 0;
  const loaded = await bulkLoad({
    dataDir: join(directory, 'data'),
    prescriptionUrl: BENCH_PRESCRIPTION_URL,
    prescriber: PRESCRIBER,
    pharmacist: PHARMACIST,
    groups: groupsOf(spec),
    onProgress: (done, total) => {
      if (done - reported < Math.max(1, Math.floor(total / 20)) && done !== total) return;
      reported = done;
      onProgress(`  ${spec.name}: ${done.toLocaleString('en')} of ${total.toLocaleString('en')}`);
    },
  });
  const manifest: Manifest = {
    format: LOADER_FORMAT,
    schemaVersion: LATEST_SCHEMA_VERSION,
    spec,
    prescriptions: loaded.prescriptions,
    events: loaded.events,
    verifyLinks: loaded.kept.verify!.links,
    verifyIds: loaded.kept.verify!.ids,
    coldLinks: loaded.kept.cold?.links ?? [],
    dispenseIds: loaded.kept.bulk!.ids,
    load: {
      seconds: loaded.seconds,
      eventsPerSecond: loaded.eventsPerSecond,
      date: new Date().toISOString(),
    },
  };
  writeFileSync(join(directory, 'manifest.json'), `${JSON.stringify(manifest)}\n`);
  return manifest;
}

function sampleOf<T>(items: readonly T[]): T[] {
  const step = Math.max(1, Math.floor(items.length / CHECKED_SAMPLE));
  return items.filter((_, i) => i % step === 0).slice(0, CHECKED_SAMPLE);
}

/** Why a cached set cannot be used, or undefined when its sample of links and chains verifies. */
async function problemWith(directory: string, spec: DatasetSpec): Promise<string | undefined> {
  const manifestPath = join(directory, 'manifest.json');
  if (!existsSync(manifestPath)) return 'no manifest';
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
  if (manifest.format !== LOADER_FORMAT) return `loader format ${manifest.format}`;
  if (manifest.schemaVersion !== LATEST_SCHEMA_VERSION) {
    return `schema version ${manifest.schemaVersion}`;
  }
  if (JSON.stringify(manifest.spec) !== JSON.stringify(spec)) return 'other sizes';
  const dataDir = join(directory, 'data');
  const ring = LinkKeyring.open(keyPaths(dataDir).linkKeys);
  for (const link of sampleOf([...manifest.verifyLinks, ...manifest.coldLinks])) {
    if (!verifyLinkSignature(parseLink(link), ring)) return 'a link does not verify';
  }
  const { pki, linkKeys } = await openKeys(dataDir);
  const verifier = new EventVerifier(pki.trustStore, new VerificationMemory());
  const termsVerifier = new TermsVerifier(linkKeys, new VerificationMemory().terms);
  const validityMs = loadConfig({}).prescriptionValidityMs;
  const store = await openStore({ dataDir, databaseUrl: undefined });
  try {
    if ((await store.prescriptions.count()) !== manifest.prescriptions) return 'prescriptions lost';
    const chains: [readonly string[], number][] = [
      [manifest.verifyIds, VERIFY_CHAIN_EVENTS],
      [manifest.dispenseIds, BULK_CHAIN_EVENTS],
    ];
    for (const [ids, length] of chains) {
      for (const id of sampleOf(ids)) {
        const state = (await store.readChain(id))?.state;
        if (state?.events.length !== length) return `chain ${id} is not as loaded`;
        const check = await verifyChain(
          { prescriptionId: id, events: state.events, headHash: state.prescription.headHash },
          verifier,
        );
        if (!check.ok) return `chain ${id}: ${check.failedCheck} ${check.reason}`;
        // The terms every dispense decides from: signed, and not expiring during a run.
        if (state.prescription.terms === undefined) return `prescription ${id} has no terms`;
        const terms = readTerms(state.prescription, check.bodies[0]!, termsVerifier, validityMs);
        if (typeof terms === 'string') return `prescription ${id}: ${terms}`;
        if (terms.expiresAt < Date.now() + VALID_AT_LEAST_MS) {
          return `prescription ${id} expires at ${new Date(terms.expiresAt).toISOString()}`;
        }
      }
    }
  } finally {
    await store.close();
  }
  return undefined;
}

/** The scale set in `cacheDir`, checked, or (re)built when missing, unusable or `fresh`. */
export async function ensureCached(
  spec: DatasetSpec,
  cacheDir: string,
  options: { fresh?: boolean; onProgress: Progress },
): Promise<CachedSet> {
  const directory = join(cacheDir, `${spec.name}-${spec.prescriptions}`);
  if (options.fresh !== true) {
    const problem = await problemWith(directory, spec).catch((error: unknown) => String(error));
    if (problem === undefined) {
      const manifest = JSON.parse(readFileSync(join(directory, 'manifest.json'), 'utf8'));
      return { directory, manifest: manifest as Manifest, source: 'cache' };
    }
    if (existsSync(directory)) options.onProgress(`  cached set unusable (${problem}): rebuilding`);
  }
  const manifest = await build(spec, directory, options.onProgress);
  return { directory, manifest, source: 'fresh' };
}

/**
 * A copy of the cached set in `runDir/<name>`, for one run (or one build of a comparison) to
 * change freely; `started` is when the set was asked for (a fresh set counts its whole build).
 */
export function copyCached(cached: CachedSet, runDir: string, started: number): Dataset {
  const copyStarted = performance.now();
  const directory = join(runDir, cached.manifest.spec.name);
  rmSync(directory, { recursive: true, force: true });
  cpSync(join(cached.directory, 'data'), join(directory, 'data'), { recursive: true });
  return {
    dataDir: join(directory, 'data'),
    manifest: cached.manifest,
    source: cached.source,
    // A cached set costs only its check and copy; a fresh one its whole build.
    prepareSeconds: (performance.now() - (cached.source === 'cache' ? copyStarted : started)) / 1000,
  };
}
