/**
 * One HTTP call to erx as every test makes it, read into an {@link Answer}, and a token from the
 * token endpoint: the only request helper of the test suites.
 */
import { Agent } from 'undici';

/**
 * A new connection per call. A test's server runs in the test's own process: a test busy for
 * seconds (a suite starting beside others on two cores) delays the client's and the server's
 * keep-alive timers alike, and a call sent on an idle connection the server then closes fails with
 * ECONNRESET. Services' own clients retry such calls; a test must see each call's own answer.
 */
const FRESH_CONNECTIONS = new Agent({ pipelining: 0 });

/** An answer, read whole. */
export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
  bytes: Buffer;
}

/** What a call sends besides its method and path. */
export interface RequestOptions {
  /** A bearer token, sent as `Bearer acs:<token>`. */
  token?: string;
  /** Raw Authorization header (overrides token). */
  authorization?: string;
  body?: string | Buffer;
  contentType?: string;
  headers?: Record<string, string>;
}

/** One HTTP call to `url + path`, read whole. */
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
  const init = { method, headers, body: o.body, dispatcher: FRESH_CONNECTIONS };
  const response = await fetch(url + path, init as RequestInit);
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

/**
 * A bearer token (without its prefix) of `clientId` from the token endpoint of the erx at `url`;
 * throws unless it answers 200. A server started with a load bound (ERX_MAX_LAG_MS) may refuse
 * while it starts up on busy cores: the call is repeated after its Retry-After, as a client does,
 * for up to 10 s.
 */
export async function fetchToken(url: string, clientId: string, secret: string): Promise<string> {
  const form = new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: clientId,
    client_secret: secret,
  });
  const until = performance.now() + 10_000;
  let answer: Answer;
  for (;;) {
    answer = await send(url, 'POST', '/REST/v1/OAuth/token', {
      body: form.toString(),
      contentType: 'application/x-www-form-urlencoded',
    });
    if (answer.status !== 503 || performance.now() > until) break;
    const retryAfter = Number(answer.headers.get('retry-after') ?? 1);
    await new Promise((resolve) => setTimeout(resolve, retryAfter * 1_000));
  }
  if (answer.status !== 200)
    throw new Error(`token for ${clientId}: ${answer.status} ${answer.text}`);
  return answer.json.access_token as string;
}
