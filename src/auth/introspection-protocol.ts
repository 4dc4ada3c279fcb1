/**
 * Which protocol an external token service (`ERX_AUTH_URL`, SPEC.md §2) speaks: the seed's
 * GetTokenInfo (seed §4.3) or standard RFC 7662 token introspection.
 */

/** `gettokeninfo`: seed §4.3 form fields; `rfc7662`: RFC 7662 with HTTP Basic client auth. */
export type IntrospectionProtocol = 'gettokeninfo' | 'rfc7662';

/** True when `value` names a protocol. */
export function isIntrospectionProtocol(value: string): value is IntrospectionProtocol {
  return value === 'gettokeninfo' || value === 'rfc7662';
}

/**
 * The protocol for a token-check URL: `override` when given, else `gettokeninfo` when the path
 * ends in `/GetTokenInfo` (the seed's path, any case), else `rfc7662`.
 */
export function chooseIntrospectionProtocol(
  url: string,
  override?: IntrospectionProtocol,
): IntrospectionProtocol {
  if (override !== undefined) return override;
  // The lookbehind tries only the first slash of a run: `/\/+$/` is quadratic on a long one.
  const path = new URL(url).pathname.replace(/(?<!\/)\/+$/, '');
  return /\/gettokeninfo$/i.test(path) ? 'gettokeninfo' : 'rfc7662';
}
