/** `erx serve`: open the runtime, listen, print where to go, and shut down cleanly on signals. */
import { pino } from 'pino';
import type { Config } from '../config/index.js';
import { logRequest } from '../http/log-request.js';
import { banner } from './banner.js';
import { ensureDemoClients } from './demo-clients.js';
import { openRuntime } from './runtime.js';
import type { Runtime } from './runtime.js';

/**
 * Where the log goes: stdout, written in batches of up to 4 KB from a buffer flushed at least every
 * 250 ms and on exit, so a busy service makes one write for many lines, not one per line.
 */
function logDestination(): pino.DestinationStream {
  return pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 250 });
}

/** How often expired tokens and idempotency records are purged. */
const PURGE_INTERVAL_MS = 10 * 60 * 1000;

/**
 * Connections the kernel holds for erx to accept (capped by `net.core.somaxconn`). Node's default,
 * 511, overflows when many clients connect while erx is busy; the kernel then drops their SYNs
 * and they retry after 1, 3, 7 s, seconds of latency no shedding can answer.
 */
const LISTEN_BACKLOG = 4096;

/** Starts the service and resolves once it listens; returns the runtime and its base URL. */
export async function serve(
  config: Config,
  options: { migrate?: boolean } = {},
  out: (text: string) => void = (t) => process.stdout.write(t),
): Promise<{ runtime: Runtime; url: string }> {
  const runtime = await openRuntime(config, {
    logger: {
      level: config.logLevel,
      redact: ['req.headers.authorization'],
      serializers: { req: logRequest },
      stream: logDestination(),
    },
    migrate: options.migrate ?? true,
  });
  const demo = runtime.tokens ? await ensureDemoClients(runtime.tokens, config.dataDir) : undefined;
  // Threads started at the first dispense would take its first tens of milliseconds, in which
  // the signing-queue bound refuses every call that signs.
  runtime.signPool.start();
  let metricsUrl: string | undefined;
  try {
    metricsUrl = await runtime.metricsListener?.listen();
    await runtime.app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  } catch (error) {
    // Nothing may keep the process alive after a start that failed.
    await runtime.close();
    throw error;
  }
  const address = runtime.app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  out(banner(url, demo, runtime.tokens !== undefined, metricsUrl, config.prescriptionUrl));

  const purge = setInterval(() => {
    const now = Date.now();
    void runtime.store.clients.purgeTokens(now).catch(() => undefined);
    void runtime.store.idempotency.purge(now - 24 * 60 * 60 * 1000).catch(() => undefined);
  }, PURGE_INTERVAL_MS);
  purge.unref();

  const stop = (): void => {
    clearInterval(purge);
    void runtime.close().finally(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return { runtime, url };
}
