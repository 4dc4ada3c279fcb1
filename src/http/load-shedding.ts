/**
 * Load shedding, three bounds, each answering the next API request at once with 503 and
 * `Retry-After` in the error shape, before its token is checked and, as a rule, before its body is
 * read:
 *
 * - at most `maxInFlight` requests in progress (memory: requests waiting for a signature). A
 *   request takes its place once its body has arrived: the time a body takes is the client's,
 *   and a place held while it trickles in (up to the request timeout) would let a few hundred
 *   slow clients refuse everyone else. A request that arrives while the places are taken is
 *   refused before its body is read; one whose body arrived as the last place went, after;
 * - no new call that signs (routes with `config.signs`) while `maxSigningQueue` signatures per
 *   signing thread are waiting: each waits about a signature's time per place in the queue, so
 *   past this a dispense would be answered late rather than refused in time (on by default).
 *   The full length is for bursts, and for as many clients as it holds each waiting for its
 *   answer. A queue that has filled up stands: signatures are asked for faster than the machine
 *   makes them, a longer queue only makes every one wait longer, and each dispense it lets in
 *   takes CPU from the event loop. Then the bound is {@link STANDING_QUEUE_PER_THREAD} per thread
 *   until it has refused nothing for {@link STANDING_QUEUE_HOLD_MS};
 * - no new work while the event loop runs `maxLagMs` or more behind (CPU; off unless configured).
 *   When requests arrive faster than the CPU serves them they wait in the kernel's socket buffers,
 *   where no counter of ours sees them: each is read late, and one still worked on is answered
 *   after its client gave up. The event loop's lag is what that queue costs each request, so past
 *   the bound erx refuses cheaply, the queue drains, and what it accepts is answered in time. The
 *   price: a long garbage collection or a burst can refuse the few requests read just after it,
 *   which is why the operator chooses the bound (docs/operations.md).
 *
 * Past its capacity a service that queues everything answers nothing in time and grows without
 * bound; one that sheds keeps its memory bounded and its answers fast (docs/performance.md). The
 * operations routes (health, readiness) are never shed: they are how an operator sees the
 * overload.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SigningLoad } from '../pki/index.js';
import { sendError } from './error-handler.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route signs a ledger event: it is refused while too many signatures wait. */
    signs?: boolean;
    /**
     * The route answers with a stream that lasts as long as its client wants (the event
     * stream): it holds no place among the requests in progress, which it would hold for good.
     */
    longLived?: boolean;
  }
  interface FastifyRequest {
    /** Refused by the load shedding (its log line is then at debug level). */
    shed: boolean;
  }
}

const NEVER_SHED: ReadonlySet<string> = new Set(['/healthz', '/readyz']);

const SHED_MESSAGE = 'erx is at capacity; retry shortly.';

/** At most one warning about shed requests per this many ms; each request is logged at debug. */
export const SHED_WARNING_MS = 10_000;

/** Whether `request` was refused by the load shedding (its log line is then at debug level). */
export function wasShed(request: FastifyRequest): boolean {
  return request.shed === true;
}

/** The signing queue's bound per thread once it was full (or `maxSigningQueue` if lower). */
export const STANDING_QUEUE_PER_THREAD = 4;

/**
 * How long, in ms, the short bound lasts after the queue last refused a call. A queue that
 * empties for a moment in an overload (while the lag bound refuses everything, say) would
 * otherwise fill up to the full bound again, and the calls at its end wait that long.
 */
export const STANDING_QUEUE_HOLD_MS = 1_000;

/** How often the event loop's lag is sampled, in ms. */
const LAG_SAMPLE_MS = 10;

export interface LoadShedding {
  /** Requests in progress at once; 0 = no bound. */
  readonly maxInFlight: number;
  /** Event-loop lag, in ms, from which new requests are refused; 0 = no bound. */
  readonly maxLagMs: number;
  /**
   * Signatures waiting per signing thread from which new calls that sign are refused (once the
   * queue was full, {@link STANDING_QUEUE_PER_THREAD} if lower, for a while); 0 = none.
   */
  readonly maxSigningQueue: number;
}

/**
 * Watches the event loop's lag: how late a timer due every {@link LAG_SAMPLE_MS} fired last. A
 * late timer was held up by the callbacks before it, which is what every socket read waits for
 * too. The timer does not keep the process alive.
 */
function watchLag(): { lagMs: () => number; stop: () => void } {
  let lag = 0;
  // The first tick only starts the clock: the turns before it (start-up) are not requests' lag.
  let last: number | undefined;
  const timer = setInterval(() => {
    const now = performance.now();
    if (last !== undefined) lag = Math.max(0, now - last - LAG_SAMPLE_MS);
    last = now;
  }, LAG_SAMPLE_MS);
  timer.unref();
  return { lagMs: () => lag, stop: () => clearInterval(timer) };
}

/**
 * Installs the bounds; a bound of 0 is not installed. `signing` tells the signing load (the
 * runtime's signing pool's), `clock` the time in ms (tests give it).
 */
export function installLoadShedding(
  app: FastifyInstance,
  bounds: LoadShedding,
  signing: () => SigningLoad,
  clock: () => number = () => performance.now(),
): void {
  const { maxInFlight, maxLagMs, maxSigningQueue } = bounds;
  // Kept on the request itself: no state outside the instance outlives it.
  app.decorateRequest('shed', false);
  if (maxInFlight <= 0 && maxLagMs <= 0 && maxSigningQueue <= 0) return;
  // Until when the queue counts as standing: set when it is found full, kept while it refuses.
  let standingUntil = -Infinity;
  const signingFull = (): boolean => {
    if (maxSigningQueue <= 0) return false;
    const { waiting, threads } = signing();
    const now = clock();
    const refused =
      waiting >= maxSigningQueue * threads ||
      (now < standingUntil && waiting >= STANDING_QUEUE_PER_THREAD * threads);
    if (refused) standingUntil = now + STANDING_QUEUE_HOLD_MS;
    return refused;
  };
  const lag = maxLagMs > 0 ? watchLag() : undefined;
  if (lag) app.addHook('onClose', async () => lag.stop());
  let inFlight = 0;
  let shed = 0;
  let lastWarning = -Infinity;
  const warn = (): void => {
    const now = clock();
    if (now - lastWarning < SHED_WARNING_MS) return;
    app.log.warn(
      {
        shed,
        inFlight,
        lagMs: Math.round(lag?.lagMs() ?? 0),
        signaturesWaiting: signing().waiting,
        // The signing queue filled up lately: its bound is STANDING_QUEUE_PER_THREAD for now.
        signingQueueStanding: now < standingUntil,
        maxInFlight,
        maxLagMs,
        maxSigningQueue,
      },
      'overloaded: requests refused with 503',
    );
    lastWarning = now;
    shed = 0;
  };
  const refuse = (request: FastifyRequest, reply: FastifyReply): FastifyReply => {
    // Answered here, without an Error and its stack: refusing must cost far less than serving.
    shed++;
    request.shed = true;
    warn();
    reply.header('retry-after', '1');
    return sendError(reply, request, 'service_unavailable', SHED_MESSAGE);
  };
  const full = (): boolean => maxInFlight > 0 && inFlight >= maxInFlight;
  app.addHook('onRequest', async (request, reply) => {
    if (NEVER_SHED.has(request.routeOptions.url ?? '')) return;
    const overloaded =
      full() ||
      (lag !== undefined && lag.lagMs() >= maxLagMs) ||
      (request.routeOptions.config.signs === true && signingFull());
    if (overloaded) return refuse(request, reply);
  });
  if (maxInFlight <= 0) return;
  // After the body was read and parsed, before the token check: from here on the time a request
  // takes is erx's (and the token service's), not its client's.
  app.addHook('preValidation', async (request, reply) => {
    if (NEVER_SHED.has(request.routeOptions.url ?? '')) return;
    if (full()) return refuse(request, reply);
    if (request.routeOptions.config.longLived === true) return;
    // A client gone already had its 'close': counting it would keep its place taken for good.
    if (reply.raw.destroyed) return;
    inFlight++;
    // 'close' comes once, after the answer is sent or when the client went away first.
    reply.raw.once('close', () => inFlight--);
  });
}
