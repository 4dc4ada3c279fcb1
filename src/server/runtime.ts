/**
 * The composition root: opens the store, the link keys, the ledger PKI with its signing threads
 * and the token service from the configuration and assembles the prescription service and the
 * HTTP application. Every resource that runs (threads, timers, sockets) is created here and ended
 * by `close()`; importing a module starts nothing.
 */
import { join } from 'node:path';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { FailureBudget, ScryptPool, TokenService, createTokenChecker } from '../auth/index.js';
import type { Config } from '../config/index.js';
import { ErxError } from '../errors.js';
import { buildApp } from '../http/app.js';
import type { AppDeps } from '../http/app.js';
import type { StreamOptions } from '../http/event-streams.js';
import { MetricsListener } from '../http/metrics-listener.js';
import { createMetrics } from '../http/metrics.js';
import type { Metrics } from '../http/metrics.js';
import { KeyedMutex } from '../keyed-mutex.js';
import { Clock, EventVerifier } from '../ledger/index.js';
import { VerificationMemory } from '../memory/verification-memory.js';
import { LinkKeyring } from '../link/index.js';
import { DirectoryPkiStorage, SignPool, openPki } from '../pki/index.js';
import type { Pki } from '../pki/index.js';
import { QrRenderPool } from '../qr/render-pool.js';
import {
  IssuedAtFormat,
  PrescriptionService,
  TermsVerifier,
  VerificationCache,
  VerifiedHeads,
  FeedClock,
  chainVouches,
  checkedFeed,
} from '../service/index.js';
import { TransparencyLog } from '../transparency/transparency-log.js';
import { WitnessClient } from '../transparency/witness-client.js';
import { openLogIdentity } from './log-key.js';
import { bindOlderSecretHashesOnce } from './bind-secret-hashes.js';
import { openStore } from './open-store.js';
import { openPepper } from './pepper-key.js';
import { openSealKey } from './seal-key.js';
import type { Store } from '../store/types.js';

export interface Runtime {
  readonly config: Config;
  readonly store: Store;
  readonly linkKeys: LinkKeyring;
  readonly pki: Pki;
  /** The threads that sign ledger events (idle until `start()` or the first signature). */
  readonly signPool: SignPool;
  /** The thread that hashes client secrets (idle until the first hash). */
  readonly scryptPool: ScryptPool;
  /** The threads that render create's QR codes (idle until the first render). */
  readonly qrRenderer: QrRenderPool;
  readonly tokens: TokenService | undefined;
  readonly service: PrescriptionService;
  readonly metrics: Metrics;
  /** Serves `metrics` on `ERX_METRICS_ADDR` once told to listen; undefined when `off`. */
  readonly metricsListener: MetricsListener | undefined;
  /** Knows the event feed's head and wakes the event streams when it moves. */
  readonly feedClock: FeedClock;
  readonly transparency: TransparencyLog;
  readonly app: FastifyInstance;
  close(): Promise<void>;
}

export interface RuntimeOptions {
  logger?: FastifyServerOptions['logger'];
  /** Clock, unix ms (tests). */
  now?: () => number;
  /** Apply pending migrations on open (default true; `erx serve --no-migrate`). */
  migrate?: boolean;
  /** Slowloris limits of the HTTP server (tests shorten them). */
  timeouts?: AppDeps['timeouts'];
  /** How often the feed's head is looked at while streams are open, ms, and the streams' bounds. */
  feed?: { pollMs?: number; streams?: Partial<StreamOptions> };
  /**
   * The scrypt cost of the client secret hashes the embedded token service writes (default 2^15);
   * tests that register clients at every start write cheaper ones. `erx serve` never sets it.
   */
  secretCost?: number;
}

/** A running service looks for another process's key rotation at most once a second. */
const RING_RECHECK_MS = 1_000;

/** Where the link keys and the PKI live inside the data directory. */
export function keyPaths(dataDir: string): { linkKeys: string; pki: string } {
  return { linkKeys: join(dataDir, 'link-keys'), pki: join(dataDir, 'pki') };
}

/**
 * Opens the link key ring and the PKI of a data directory (created on first use). Its signer signs
 * on `pool` when given, else on the calling thread (tools and tests that sign little).
 */
export async function openKeys(
  dataDir: string,
  root: Partial<Pick<Config, 'rootCertPath' | 'rootKeyPath'>> = {},
  pool?: SignPool,
): Promise<{ linkKeys: LinkKeyring; pki: Pki }> {
  const paths = keyPaths(dataDir);
  const linkKeys = LinkKeyring.open(paths.linkKeys, { recheckMs: RING_RECHECK_MS });
  const pki = await openPki({
    storage: new DirectoryPkiStorage(paths.pki),
    rootCertificatePath: root.rootCertPath,
    rootPrivateKeyPath: root.rootKeyPath,
    pool,
  });
  return { linkKeys, pki };
}

/** Opens every part of an erx instance and builds its HTTP application (not listening yet). */
export async function openRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  // The instance's one clock: the rules' milliseconds and the events' nanoseconds.
  const clock = new Clock(options.now ?? Date.now);
  const now = clock.now;
  // Everything remembered about links, chains, signatures, terms and log proofs, bounded by the
  // configuration (docs/decisions.md lists each part and its bound).
  const memory = new VerificationMemory(config.memory);
  const store = await openStore(config, {
    migrate: options.migrate ?? true,
    backgroundCheckpoints: true,
  });
  // One thread per core, started by `start()` (as `erx serve` does) or at the first signature.
  const signPool = new SignPool();
  // Client secrets are hashed here, never on libuv's pool where verification runs; started at
  // the first hash.
  const scryptPool = new ScryptPool();
  // Started at the first QR code asked for: most creates ask for the link data only.
  const qrRenderer = new QrRenderPool();
  // Its failures are logged by the application, built below.
  let logFeedFailure = (_error: unknown): void => undefined;
  const feedClock = new FeedClock(store, {
    pollMs: options.feed?.pollMs,
    onError: (error) => logFeedFailure(error),
  });
  let logGrowthFailure = (_error: unknown): void => undefined;
  const identity = openLogIdentity(config.dataDir, config.logOrigin);
  const witnessList = config.logEnabled ? config.logWitnesses : [];
  const transparency = new TransparencyLog(store, identity, now, memory, {
    receiptWaitMs: config.logReceiptWaitMs,
    enabled: config.logEnabled,
    witnessed: witnessList.length > 0,
    onError: (error) => logGrowthFailure(error),
  });
  let logWitnessFailure = (_witness: string, _error: unknown): void => undefined;
  // Asks the witnesses to cosign new checkpoints on timers of its own, never in an answer's way.
  const witnesses = new WitnessClient(store.log, witnessList, {
    onError: (witness, error) => logWitnessFailure(witness, error),
  });
  // Events other instances append are grown into the log on the feed clock's looks (a log that
  // grows in memory looks on a timer of its own, and no local append need kick the clock).
  const stopGrowingOnLooks =
    config.logEnabled && !transparency.growsInMemory
      ? feedClock.listen(() => void transparency.grow())
      : () => undefined;
  // Closes what is opened above, in the order each part's users end: on close and on a failed open.
  const closeParts = async (): Promise<void> => {
    stopGrowingOnLooks();
    await witnesses.close();
    await transparency.close();
    await feedClock.close();
    await store.close();
    await signPool.close();
    await scryptPool.close();
    await qrRenderer.close();
  };
  try {
    const { linkKeys, pki } = await openKeys(config.dataDir, config, signPool);
    const metrics = createMetrics();
    // The embedded token service's hashes are bound to a key outside the database.
    const pepper = config.authUrl === undefined ? openPepper(config) : undefined;
    const tokens =
      pepper &&
      new TokenService(store, pepper, {
        now,
        scrypt: scryptPool,
        budget: new FailureBudget({ now }),
        secretCost: options.secretCost,
      });
    // Secret hashes written before they were bound are bound at the first start, never again.
    if (tokens) await bindOlderSecretHashesOnce(config.dataDir, tokens);
    const checker = createTokenChecker(config, store, pepper, {
      now,
      onLookup: (result) => metrics.tokenCache.inc({ result }),
    });
    const verifier = new EventVerifier(pki.trustStore, memory);
    const terms = new TermsVerifier(linkKeys, memory.terms);
    const verifiedHeads = new VerifiedHeads(store, openSealKey(config.dataDir), pki.trustStore);
    // Events this instance did not sign become leaves only once their signature verifies, or a
    // seal over their chain vouches for it.
    transparency.checkSignaturesWith(
      verifier,
      chainVouches({ store, verifier, verifiedHeads, terms }),
    );
    const service = new PrescriptionService({
      store,
      appendLocks: new KeyedMutex(),
      linkKeys,
      signer: pki.signer,
      verifier,
      cache: new VerificationCache(memory),
      terms,
      verifiedHeads,
      prescriptionUrl: config.prescriptionUrl,
      issuedAt: new IssuedAtFormat(config.timezone),
      prescriptionValidityMs: config.prescriptionValidityMs,
      lockTtlMs: config.lockTtlMs,
      chainBounds: config.chainBounds,
      clock,
      firstNotInLog: (events) => transparency.firstNotInLog(events),
      loggedPlaces: (id) => transparency.loggedPlaces(id),
      onAppend: (type, event) => {
        metrics.eventsAppended.inc({ type });
        feedClock.appended();
        transparency.appended(event);
      },
    });
    const app = await buildApp({
      config,
      prescriptions: service,
      catalog: store.catalog,
      tokens,
      checker,
      metrics,
      qrRenderer,
      signingLoad: () => signPool.load(),
      logger: options.logger,
      timeouts: options.timeouts,
      // Every row checked against its signed event before anyone is shown it.
      feed: {
        rows: checkedFeed(store.feed, verifier),
        clock: feedClock,
        now,
        streams: options.feed?.streams,
      },
      transparency: { log: transparency, verifierKey: identity.verifierKey, tiles: store.log },
      ready: async () => {
        await store.ping();
        if (linkKeys.list().length === 0) throw new ErxError('service_unavailable', 'no link key');
        await pki.signer.keyAt(new Date(now()));
      },
    });
    logFeedFailure = (error) => app.log.warn({ err: error }, 'event feed: head not read');
    logGrowthFailure = (error) => app.log.warn({ err: error }, 'transparency log: not grown');
    logWitnessFailure = (witness, error) =>
      app.log.warn({ err: error, witness }, 'transparency log: no cosignature');
    witnesses.start();
    // Events written before the log existed, or while this instance was down, become leaves now.
    void transparency.grow();
    const metricsListener =
      config.metricsAddr && new MetricsListener(metrics.registry, config.metricsAddr);
    return {
      config,
      store,
      linkKeys,
      pki,
      signPool,
      scryptPool,
      qrRenderer,
      tokens,
      service,
      metrics,
      metricsListener,
      feedClock,
      transparency,
      app,
      close: async () => {
        await metricsListener?.close();
        // The streams end first (the application's preClose), then the clock that wakes them.
        await app.close();
        await closeParts();
      },
    };
  } catch (error) {
    await closeParts();
    throw error;
  }
}
