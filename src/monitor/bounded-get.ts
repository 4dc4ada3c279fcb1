/**
 * One GET of a log resource from a server that may be hostile: the body is read as a stream and
 * dropped once it passes its limit, counted after any `Content-Encoding` is undone (a small gzip
 * answer can unpack to gigabytes); redirects are followed only to the same host, never downgrading
 * `https` to `http`, and at most {@link MAX_REDIRECTS} times.
 */
import { MonitorError } from './monitor-error.js';

/** Most redirects followed for one resource. */
export const MAX_REDIRECTS = 3;

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Whether a redirect from `from` to `to` stays with the same log: same host, no downgrade. */
export function sameHostRedirect(from: URL, to: URL): boolean {
  if (to.protocol !== 'http:' && to.protocol !== 'https:') return false;
  if (to.protocol === from.protocol) return to.host === from.host;
  // An upgrade to https on the same name (a proxy's usual redirect); never back to http.
  return from.protocol === 'http:' && to.hostname === from.hostname;
}

/** Reads `response`'s body, decoded, stopping (and cancelling it) once past `limit` bytes. */
async function readBounded(response: Response, url: string, limit: number): Promise<Buffer> {
  if (response.body === null) return Buffer.alloc(0);
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    length += value.byteLength;
    if (length > limit) {
      await reader.cancel().catch(() => undefined);
      throw new MonitorError('unreachable', `GET ${url}: over ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks, length);
}

function parsed(location: string, base: URL): URL | undefined {
  try {
    return new URL(location, base);
  } catch {
    return undefined;
  }
}

/** The body of `url` (status 200, at most `limit` decoded bytes), following same-host redirects. */
export async function boundedGet(url: string, limit: number, signal: AbortSignal): Promise<Buffer> {
  let at = new URL(url);
  for (let hops = 0; ; hops++) {
    const response = await fetch(at, { signal, redirect: 'manual' });
    if (REDIRECTS.has(response.status)) {
      await response.body?.cancel();
      const location = response.headers.get('location');
      const next = location === null ? undefined : parsed(location, at);
      if (next === undefined || !sameHostRedirect(at, next)) {
        throw new MonitorError(
          'unreachable',
          `GET ${url}: redirected to another host (${String(location)}), not followed`,
        );
      }
      if (hops >= MAX_REDIRECTS) {
        throw new MonitorError('unreachable', `GET ${url}: more than ${MAX_REDIRECTS} redirects`);
      }
      at = next;
      continue;
    }
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new MonitorError('unreachable', `GET ${url}: HTTP ${response.status}`);
    }
    return readBounded(response, url, limit);
  }
}
