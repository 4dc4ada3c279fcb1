/** What the HTTP application is built from (see `buildApp`). */
import type { FastifyServerOptions } from 'fastify';
import type { TokenService } from '../auth/index.js';
import type { Config } from '../config/index.js';
import type { SigningLoad } from '../pki/index.js';
import type { QrRenderPool } from '../qr/render-pool.js';
import type { PrescriptionService } from '../service/index.js';
import type { FeedClock } from '../service/feed-clock.js';
import type { TransparencyLog } from '../transparency/transparency-log.js';
import type { StreamOptions } from './event-streams.js';
import type { RememberingTokenChecker } from './auth-hook.js';
import type { Metrics } from './metrics.js';

export interface AppDeps {
  config: Config;
  prescriptions: PrescriptionService;
  /** The embedded token service; absent when an external one is configured. */
  tokens: TokenService | undefined;
  checker: RememberingTokenChecker;
  metrics: Metrics;
  /** The threads that render create's QR codes (PNG, SVG) off the event loop. */
  qrRenderer: QrRenderPool;
  /** The signing load now, for the load shedding (the runtime's signing pool's). */
  signingLoad: () => SigningLoad;
  /** The runtime's feed clock, which wakes the event streams; `streams` shortens them (tests). */
  feed: { clock: FeedClock; streams?: Partial<StreamOptions> };
  /** The transparency log (receipts, checkpoints, tiles) and its key in C2SP verifier form. */
  transparency: { log: TransparencyLog; verifierKey: string };
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
