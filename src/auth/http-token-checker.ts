/**
 * The token checker for an external token service (`ERX_AUTH_URL`, SPEC.md §2), speaking the
 * seed's GetTokenInfo (seed §4.3) or RFC 7662 introspection. Fails closed (SPEC.md §5): no
 * answer, a late answer or a wrong answer is `service_unavailable`, never a verdict.
 */
import { ErxError } from '../errors.js';
import { basicAuthorization } from './client-credentials.js';
import type { IntrospectionProtocol } from './introspection-protocol.js';
import type { Principal } from './principal.js';
import { principalFromIntrospection } from './principal-from-introspection.js';
import type { TokenChecker } from './token-checker.js';
import { withTimeLimit } from '../time-limit.js';

export interface HttpTokenCheckerOptions {
  /** The full token-check URL, e.g. `https://auth.example/REST/v1/OAuth/GetTokenInfo`. */
  url: string;
  /** erx's own client credentials at the token service. */
  clientId: string;
  clientSecret: string;
  protocol: IntrospectionProtocol;
  /** Whole round trip, body included (default 2000 ms). */
  timeoutMs?: number;
  /** Clock, unix ms (tests freeze it). */
  now?: () => number;
}

// A token-check answer is a few hundred bytes; a provider sending megabytes is broken.
const MAX_ANSWER_BYTES = 64 * 1024;

function unavailable(reason: string): ErxError {
  return new ErxError('service_unavailable', 'The token service is not available.', {
    detail: { reason },
  });
}

async function readBounded(response: Response): Promise<string> {
  if (response.body === null) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > MAX_ANSWER_BYTES) throw unavailable('answer too large');
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Checks tokens with an external token service over HTTP. */
export class HttpTokenChecker implements TokenChecker {
  readonly #options: Required<HttpTokenCheckerOptions>;

  constructor(options: HttpTokenCheckerOptions) {
    const scheme = new URL(options.url).protocol;
    if (scheme !== 'https:' && scheme !== 'http:') {
      throw new RangeError('the token-check URL must be http or https');
    }
    const timeoutMs = options.timeoutMs ?? 2000;
    if (!(timeoutMs > 0)) throw new RangeError('timeoutMs must be positive');
    this.#options = { ...options, timeoutMs, now: options.now ?? Date.now };
  }

  /** Asks the token service about `token`; `service_unavailable` when it cannot answer. */
  async check(token: string): Promise<Principal | undefined> {
    const { url, timeoutMs, now } = this.#options;
    const request = this.#request(token);
    let body: unknown;
    try {
      const text = await withTimeLimit(timeoutMs, async (signal) => {
        const response = await fetch(url, {
          method: 'POST',
          headers: {
            ...request.headers,
            'content-type': 'application/x-www-form-urlencoded',
            accept: 'application/json',
          },
          body: request.form.toString(),
          // Following a redirect would send credentials and token to wherever it points.
          redirect: 'error',
          signal,
        });
        if (response.status !== 200) {
          await response.body?.cancel();
          throw unavailable(`status ${response.status}`);
        }
        return readBounded(response);
      });
      body = JSON.parse(text);
    } catch (error) {
      if (error instanceof ErxError) throw error;
      // Network error, timeout (AbortSignal), or a body that is not JSON.
      throw unavailable(error instanceof Error ? error.name : 'unknown');
    }
    return principalFromIntrospection(body, Math.floor(now() / 1000));
  }

  #request(token: string): { headers: Record<string, string>; form: URLSearchParams } {
    const { clientId, clientSecret, protocol } = this.#options;
    if (protocol === 'gettokeninfo') {
      // Seed §4.3: all three as form fields.
      const form = new URLSearchParams({ token, client_id: clientId, client_secret: clientSecret });
      return { headers: {}, form };
    }
    // RFC 7662 §2.1: the token in the form, the caller authenticated with HTTP Basic.
    const form = new URLSearchParams({ token, token_type_hint: 'access_token' });
    return { headers: { authorization: basicAuthorization(clientId, clientSecret) }, form };
  }
}
