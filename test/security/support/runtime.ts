/**
 * erx in-process for the security suites that need what `startTestServer` does not offer: an
 * external token service (no embedded clients to register) or shortened HTTP timeouts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../../src/config/index.js';
import { openRuntime } from '../../../src/server/runtime.js';
import type { Runtime, RuntimeOptions } from '../../../src/server/runtime.js';
import type { Answer, RequestOptions } from '../../support/server.js';

export interface ListeningRuntime {
  runtime: Runtime;
  url: string;
  request(method: string, path: string, options?: RequestOptions): Promise<Answer>;
  close(): Promise<void>;
}

/** One HTTP call to `url + path`, read as `startTestServer`'s `request` reads it. */
export async function send(
  url: string,
  method: string,
  path: string,
  o: RequestOptions = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...o.headers };
  if (o.authorization !== undefined) headers.authorization = o.authorization;
  else if (o.token !== undefined) headers.authorization = `Bearer acs:${o.token}`;
  if (o.contentType !== undefined) headers['content-type'] = o.contentType;
  const response = await fetch(url + path, { method, headers, body: o.body });
  const bytes = Buffer.from(await response.arrayBuffer());
  const text = bytes.toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json, bytes };
}

/** Opens erx over a fresh data directory with `env` and listens on an ephemeral port. */
export async function listenRuntime(
  env: Record<string, string>,
  options: RuntimeOptions = {},
): Promise<ListeningRuntime> {
  const dataDir = mkdtempSync(join(tmpdir(), 'erx-security-'));
  const runtime = await openRuntime(
    loadConfig({
      ERX_DATA_DIR: dataDir,
      PORT: '0',
      ERX_PRESCRIPTION_URL: 'http://erx.test/rx/',
      ERX_RATE_LIMIT_SUBJECT: '0',
      ERX_RATE_LIMIT_ANON: '0',
      ...env,
    }),
    options,
  );
  await runtime.app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(runtime.app.server.address() as AddressInfo).port}`;
  return {
    runtime,
    url,
    request: (method, path, o) => send(url, method, path, o),
    close: async () => {
      await runtime.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
