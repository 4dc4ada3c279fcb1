/**
 * The Prometheus metrics of erx on a listener of their own (`ERX_METRICS_ADDR`, default
 * 127.0.0.1:9464), never on the API port: a scrape renders every metric, so on the API port
 * anyone could spend erx's event loop on it, and it tells them how erx is doing.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/** Where the listener listens (as `Config.metricsAddr`). */
export interface MetricsAddress {
  readonly host: string;
  readonly port: number;
}

/** How long a scraper may take to send its request, ms (no slowloris here either). */
const REQUEST_TIMEOUT_MS = 10_000;

/** `GET /metrics` from `registry` on `address`, and nothing else; created idle. */
export class MetricsListener {
  readonly #registry: Registry;
  readonly #address: MetricsAddress;
  readonly #server: Server;
  #url: string | undefined;

  constructor(registry: Registry, address: MetricsAddress) {
    this.#registry = registry;
    this.#address = address;
    this.#server = createServer(
      { requestTimeout: REQUEST_TIMEOUT_MS, headersTimeout: REQUEST_TIMEOUT_MS },
      (request, response) => void this.#answer(request, response),
    );
    this.#server.keepAliveTimeout = 5_000;
  }

  /** The address of `/metrics` once listening (`http://host:port/metrics`). */
  get url(): string | undefined {
    return this.#url;
  }

  /** Listens on the configured address (port 0: any free one); resolves with {@link url}. */
  async listen(): Promise<string> {
    const { host, port } = this.#address;
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error): void => reject(listenError(error, host, port));
      this.#server.once('error', fail);
      this.#server.listen(port, host, () => {
        this.#server.off('error', fail);
        resolve();
      });
    });
    const bound = (this.#server.address() as AddressInfo).port;
    this.#url = `http://${host.includes(':') ? `[${host}]` : host}:${bound}/metrics`;
    return this.#url;
  }

  /** Stops listening and ends open connections. */
  async close(): Promise<void> {
    if (!this.#server.listening) return;
    const closed = new Promise<void>((resolve) => this.#server.close(() => resolve()));
    this.#server.closeAllConnections();
    await closed;
  }

  async #answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = (request.url ?? '').split('?')[0];
    if (path !== '/metrics') return plain(response, 404, 'not found: only /metrics is served here');
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.setHeader('allow', 'GET, HEAD');
      return plain(response, 405, 'method not allowed');
    }
    let text: string;
    try {
      text = await this.#registry.metrics();
    } catch {
      return plain(response, 500, 'metrics could not be collected');
    }
    response.writeHead(200, {
      'content-type': this.#registry.contentType,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    response.end(request.method === 'HEAD' ? undefined : text);
  }
}

function plain(response: ServerResponse, status: number, text: string): void {
  response.writeHead(status, {
    'content-type': 'text/plain; charset=utf-8',
    'x-content-type-options': 'nosniff',
  });
  response.end(`${text}\n`);
}

/** The listen failure, naming the setting that chose the address. */
function listenError(error: Error, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code ?? error.message;
  return new Error(
    `ERX_METRICS_ADDR ${host}:${port}: cannot listen (${code}); set another or off`,
    {
      cause: error,
    },
  );
}
