/**
 * Picks the token checker the configuration asks for (SPEC.md §2, §9): the embedded token
 * service when `ERX_AUTH_URL` is absent, else the external one; both behind the cache of §5.
 */
import { ErxError } from '../errors.js';
import type { Store } from '../store/types.js';
import { CachedTokenChecker } from './cached-token-checker.js';
import type { CachedTokenCheckerOptions } from './cached-token-checker.js';
import { EmbeddedTokenChecker } from './embedded-token-checker.js';
import { HttpTokenChecker } from './http-token-checker.js';
import { chooseIntrospectionProtocol } from './introspection-protocol.js';
import type { IntrospectionProtocol } from './introspection-protocol.js';
import type { Pepper } from './pepper.js';

/** The part of the configuration that selects a token service (names as in `Config`). */
export interface TokenCheckerSettings {
  authUrl: string | undefined;
  authClientId: string | undefined;
  authClientSecret: string | undefined;
  /** Forces the protocol instead of guessing it from the URL's path. */
  authProtocol?: IntrospectionProtocol;
  /** Time limit of one external check, ms (default 2000). */
  authTimeoutMs?: number;
}

/**
 * The cached embedded or external token checker that `settings` select. The embedded one checks
 * tokens in `store` under `pepper`, the token service's (required then; unused otherwise).
 */
export function createTokenChecker(
  settings: TokenCheckerSettings,
  store: Store,
  pepper: Pepper | undefined,
  cache: CachedTokenCheckerOptions = {},
): CachedTokenChecker {
  const { authUrl, authClientId, authClientSecret } = settings;
  if (authUrl === undefined) {
    if (pepper === undefined) throw new Error('the embedded token checker needs the pepper');
    const embedded = new EmbeddedTokenChecker(store, pepper, { now: cache.now });
    return new CachedTokenChecker(embedded, cache);
  }
  if (!authClientId || !authClientSecret) {
    // Both protocols authenticate erx at the token service (seed §4.3, RFC 7662 §2.1).
    throw new ErxError(
      'bad_request',
      'configuration: ERX_AUTH_URL needs ERX_AUTH_CLIENT_ID and ERX_AUTH_CLIENT_SECRET',
    );
  }
  const external = new HttpTokenChecker({
    url: authUrl,
    clientId: authClientId,
    clientSecret: authClientSecret,
    protocol: chooseIntrospectionProtocol(authUrl, settings.authProtocol),
    timeoutMs: settings.authTimeoutMs,
    now: cache.now,
  });
  return new CachedTokenChecker(external, cache);
}
