/**
 * What the HTTP application is built from (see `buildApp`): the runtime (`src/server`) builds each
 * port, and the routes reach the rest of erx through these and nothing else (never the service's
 * own dependencies, a test of `test/architecture` holds it).
 */
import type { FastifyServerOptions } from 'fastify';
import type { TokenService } from '../auth/index.js';
import type { Config } from '../config/index.js';
import type { LogResourceSource } from '../log-serving/read-log-resource.js';
import type { SigningLoad } from '../pki/index.js';
import type { QrRenderPool } from '../qr/render-pool.js';
import type { FeedClock, PrescriptionService } from '../service/index.js';
import type { CatalogStore } from '../store/catalog.js';
import type { TransparencyLog } from '../transparency/transparency-log.js';
import type { FeedRows, StreamOptions } from './event-streams.js';
import type { RememberingTokenChecker } from './auth-hook.js';
import type { Metrics } from './metrics.js';

/** The product catalogue, read only: the name search and the names of GTINs. */
export type CatalogReader = Pick<CatalogStore, 'search' | 'byGtin'>;

/** The event feed's port: its rows, its clock, and the instance's clock for the streams. */
export interface FeedPort {
  /** The feed's rows as the store keeps them, read only. */
  rows: FeedRows;
  /** The runtime's feed clock: the head, and the wake-up of the event streams. */
  clock: FeedClock;
  /** The instance's clock, unix ms (the service's): when a stream's token has expired. */
  now: () => number;
  /** Shorter stream bounds (tests). */
  streams?: Partial<StreamOptions>;
}

export interface AppDeps {
  config: Config;
  /** The prescription service's calls (create, verify, status, dispense, …, the issued list). */
  prescriptions: PrescriptionService;
  /** The product catalogue, read only. */
  catalog: CatalogReader;
  /** The embedded token service; absent when an external one is configured. */
  tokens: TokenService | undefined;
  checker: RememberingTokenChecker;
  metrics: Metrics;
  /** The threads that render create's QR codes (PNG, SVG) off the event loop. */
  qrRenderer: QrRenderPool;
  /** The signing load now, for the load shedding (the runtime's signing pool's). */
  signingLoad: () => SigningLoad;
  /** The event feed and its live streams. */
  feed: FeedPort;
  /**
   * The transparency log (receipts, checkpoints), its key in C2SP verifier form, and the stored
   * hashes and leaves its tiles are read from.
   */
  transparency: { log: TransparencyLog; verifierKey: string; tiles: LogResourceSource };
  /** Throws when the store or the keys are not usable (`/readyz`). */
  ready: () => Promise<void>;
  logger?: FastifyServerOptions['logger'];
  /** Slowloris limits (SPEC.md §9); tests shorten them. Default {@link DEFAULT_TIMEOUTS}. */
  timeouts?: Partial<HttpTimeouts>;
}

/** How long a client may take to send a request (SPEC.md §9: no slowloris). */
export interface HttpTimeouts {
  /** Request line and headers, ms. */
  headersMs: number;
  /** The whole request, body included, ms. */
  requestMs: number;
}

export const DEFAULT_TIMEOUTS: Readonly<HttpTimeouts> = { headersMs: 10_000, requestMs: 30_000 };
