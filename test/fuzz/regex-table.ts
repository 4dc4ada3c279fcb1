/**
 * Every regular expression of `src/`, with where its input comes from. The ReDoS
 * suite runs each against adversarial strings and fails when the source holds a regex this table
 * does not list, or the table lists one the source no longer holds: a new regex cannot slip in
 * untested. Entries are matched by file and exact text, not by line.
 */

/** Where a regex's input comes from. */
export type Reach =
  | 'request' // any HTTP client
  | 'token-service' // the answer of a configured external token service
  | 'store' // rows read back from the store or key files
  | 'config' // operator configuration and CLI input
  | 'internal'; // values erx itself produced

export interface RegexEntry {
  file: string;
  /** Literal text (`/.../flags`), `new RegExp(...)` call, or pattern string as in the source. */
  text: string;
  reach: Reach;
  /** For a `new RegExp(...)` call: the expression it builds. */
  builds?: RegExp;
  /** Inputs that nearly match this one, beyond the generic ones (repeated to length n). */
  near?: (n: number) => string[];
}

const rep = (s: string, n: number): string => s.repeat(Math.ceil(n / s.length)).slice(0, n);

export const REGEX_TABLE: readonly RegexEntry[] = [
  { file: 'src/api/create.ts', text: '^[0-9]{1,4}$', reach: 'request' },
  // Stated in the OpenAPI document for clients (traceparent, a tile index); erx checks them itself elsewhere.
  {
    file: 'src/http/openapi-operations.ts',
    text: '^[0-9a-f]{2}-[0-9a-f]{32}-[0-9a-f]{16}-[0-9a-f]{2}$',
    reach: 'request',
  },
  {
    file: 'src/http/openapi-operations.ts',
    text: '^(x[0-9]{3}/)*[0-9]{3}(\\.p/[1-9][0-9]{0,2})?$',
    reach: 'request',
  },
  { file: 'src/api/feed.ts', text: '^(500|[1-4][0-9]{2}|[1-9][0-9]?)$', reach: 'request' },
  { file: 'src/api/prescription-list.ts', text: '^(100|[1-9][0-9]?)$', reach: 'request' },
  { file: 'src/api/catalog.ts', text: '^(50|[1-4][0-9]|[1-9])$', reach: 'request' },
  { file: 'src/api/catalog.ts', text: '^[0-9]{8,14}$', reach: 'request' },
  {
    file: 'src/api/params.ts',
    text: '^[^\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069]*$',
    reach: 'request',
  },
  {
    file: 'src/chmed16a/schema.ts',
    text: '^[^\\u0000-\\u001f\\u007f-\\u009f]*$',
    reach: 'request',
  },
  {
    file: 'src/cli/terminal-text.ts',
    text: '/[\\u0000-\\u001f\\u007f-\\u009f\\u202a-\\u202e\\u2066-\\u2069\\u2028\\u2029]/gu',
    reach: 'store',
  },
  {
    file: 'src/api/dispense.ts',
    text: '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0)$',
    reach: 'request',
  },
  { file: 'src/auth/access-token.ts', text: '/^[A-Za-z0-9_-]{43}$/', reach: 'request' },
  {
    file: 'src/auth/client-credentials.ts',
    text: '/^([A-Za-z]+) +([A-Za-z0-9+/]+={0,2})$/',
    reach: 'request',
    near: (n) => [`Basic ${rep('A', n)}!`, `Basic${rep(' ', n)}x!`, `Basic ${rep('=', n)}`],
  },
  { file: 'src/auth/client-credentials.ts', text: '/\\+/g', reach: 'request' },
  { file: 'src/auth/client-credentials.ts', text: '/%20/g', reach: 'request' },
  { file: 'src/auth/client-credentials.ts', text: '/^[A-Za-z]+/', reach: 'request' },
  { file: 'src/auth/client-input.ts', text: '/^[\\x21-\\x7e]+$/', reach: 'config' },
  { file: 'src/auth/check-text.ts', text: '/^[^\\p{Cc}]*$/u', reach: 'config' },
  { file: 'src/auth/profile-input.ts', text: '/^[0-9]{13}$/', reach: 'config' },
  {
    file: 'src/auth/profile-input.ts',
    text: '/^([A-Za-z])([0-9]{4})\\.?([0-9]{2})$/',
    reach: 'config',
  },
  { file: 'src/auth/profile-input.ts', text: '/^[0-9]{4,5}$/', reach: 'config' },
  {
    file: 'src/auth/introspection-protocol.ts',
    text: '/(?<!\\/)\\/+$/',
    reach: 'config',
    near: (n) => [`${rep('/', n)}a`, rep('/a', n)],
  },
  { file: 'src/auth/introspection-protocol.ts', text: '/\\/gettokeninfo$/i', reach: 'config' },
  {
    file: 'src/auth/parse-bearer.ts',
    text: '/^([A-Za-z]+) +(.*)$/s',
    reach: 'request',
    near: (n) => [`Bearer${rep(' ', n)}`, `${rep('Bearer ', n)}`],
  },
  {
    file: 'src/auth/parse-bearer.ts',
    text: '/^(?:acs|oauth):([A-Za-z0-9\\-._~+/]+=*)$/',
    reach: 'request',
    near: (n) => [`acs:${rep('A', n)}=!`, `acs:${rep('=', n)}A`, `oauth:A${rep('=', n)}!`],
  },
  {
    file: 'src/auth/parse-bearer.ts',
    text: '/^[A-Za-z0-9\\-._~+/]+=*$/',
    reach: 'request',
    near: (n) => [`${rep('A', n)}=!`, `${rep('=', n)}A`, `A${rep('=', n)}!`],
  },
  { file: 'src/auth/principal-from-introspection.ts', text: '/\\p{Cc}/u', reach: 'token-service' },
  {
    file: 'src/auth/principal-from-introspection.ts',
    text: '/\\s+/',
    reach: 'token-service',
    near: (n) => [`${rep(' \t', n)}x`, rep('a ', n)],
  },
  { file: 'src/auth/secret-hash.ts', text: '/^[A-Za-z0-9_-]+$/', reach: 'store' },
  { file: 'src/auth/secret-hash.ts', text: '/^[1-9]\\d{0,7}$/', reach: 'store' },
  { file: 'src/auth/token-info.ts', text: '/\\.\\d{3}Z$/', reach: 'internal' },
  {
    file: 'src/chmed16a/decode.ts',
    text: "new RegExp(`^${CHMED_PREFIX}([01])`, 'i')",
    reach: 'request',
    builds: /^CHMED16A([01])/i,
    near: (n) => [rep('CHMED16A', n), `CHMED16A${rep('2', n)}`],
  },
  { file: 'src/chmed16a/schema.ts', text: '^[0-9]{13}$', reach: 'request' },
  { file: 'src/chmed16a/schema.ts', text: '^[0-9]{4,5}$', reach: 'request' },
  { file: 'src/config/index.ts', text: '/^\\d+$/', reach: 'config' },
  { file: 'src/cli/commands/feed.ts', text: '/^[0-9]+$/', reach: 'config' },
  { file: 'client/retry.ts', text: '/^\\d+$/', reach: 'request' },
  {
    file: 'src/service/feed/feed-cursor.ts',
    text: '/^(?:0|[1-9a-z][0-9a-z]{0,10})$/',
    reach: 'request',
  },
  { file: 'src/config/index.ts', text: '/^postgres(ql)?:\\/\\//', reach: 'config' },
  { file: 'src/config/index.ts', text: '/^\\d{1,3}$/', reach: 'config' },
  { file: 'src/config/index.ts', text: '/^[\\x21-\\x2a\\x2c-\\x7e]{1,200}$/', reach: 'config' },
  {
    file: 'src/config/index.ts',
    text: '/^(?:\\[([0-9A-Fa-f:.]+)\\]|([^:[\\]]+)):(\\d{1,5})$/',
    reach: 'config',
    near: (n) => [`[${rep(':', n)}`, `${rep('a', n)}:`, `${rep('a', n)}:123456`],
  },
  { file: 'src/config/duration.ts', text: '/^(\\d{1,9})([smhd])$/', reach: 'config' },
  { file: 'src/http/routes/call-context.ts', text: '/^[\\x21-\\x7e]{1,200}$/', reach: 'request' },
  {
    file: 'src/http/trace.ts',
    text: '/^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/',
    reach: 'request',
    near: (n) => [rep('00-', n), `00-${rep('a', n)}`, rep('0-', n)],
  },
  { file: 'src/ledger/hash.ts', text: '/^[0-9a-f]{64}$/', reach: 'store' },
  { file: 'src/ledger/inspect-jws.ts', text: '/^[A-Za-z0-9_-]+$/', reach: 'store' },
  {
    file: 'src/ledger/timestamp.ts',
    text: '/^(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d{1,9}))?Z$/',
    reach: 'store',
    near: (n) => [`2024-01-01T00:00:00.${rep('1', n)}`, rep('2024-', n)],
  },
  {
    file: 'src/ledger/timestamp.ts',
    text: '/(?<!0)0+$/',
    reach: 'internal',
    near: (n) => [`${rep('0', n)}1`, rep('01', n)],
  },
  {
    file: 'src/ledger/validate-event-body.ts',
    text: '/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/',
    reach: 'store',
  },
  {
    file: 'src/link/issuer.ts',
    text: "/^[A-Za-z0-9\\-._~!$'()*+,;:@/?%]+$/",
    reach: 'request',
    near: (n) => [`${rep('%', n)}#`, `${rep('a', n)}&`],
  },
  {
    file: 'src/link/foreign.ts',
    text: '/^(?:chmed16a[01]|chmed23[a-z]+\\.)./is',
    reach: 'request',
    near: (n) => [rep('CHMED16A', n), `CHMED16A${rep('2', n)}`, `CHMED23${rep('a', n)}`],
  },
  { file: 'src/link/foreign.ts', text: '/^[0-9a-f]{128}$/i', reach: 'request' },
  {
    file: 'src/link/foreign.ts',
    text: '/^[0-9]{1,10}$/',
    reach: 'request',
    near: (n) => [rep('1', n), `${rep('1', n)}x`],
  },
  { file: 'src/link/issuer.ts', text: '/[\\p{Cc}\\p{Cs}]/u', reach: 'request' },
  { file: 'src/link/parse.ts', text: '/[\\p{Cc}\\p{Cs}]/u', reach: 'request' },
  {
    file: 'src/link/parse.ts',
    text: '/^[A-Za-z][A-Za-z0-9+.-]*:\\S+$/',
    reach: 'request',
    near: (n) => [rep('a', n), `a:${rep('b', n)} `, rep('a:', n) + ' ', `a${rep('+', n)}`],
  },
  {
    file: 'src/link/parse.ts',
    text: '/^(?:chmed16a[01]|chmed23[a-z]+\\.)/i',
    reach: 'request',
    near: (n) => [`CHMED23${rep('a', n)}`, `CHMED23${rep('a', n)}!`],
  },
  {
    file: 'src/link/parse.ts',
    text: '/^(?:0|[1-9][0-9]{0,9})$/',
    reach: 'request',
    near: (n) => [`1${rep('0', n)}`, rep('0', n)],
  },
  { file: 'src/link/parse.ts', text: '/^[0-9a-f]{128}$/', reach: 'request' },
  { file: 'src/link/ring-format.ts', text: '^[A-Za-z0-9_-]{43}$', reach: 'store' },
  { file: 'src/link/verify.ts', text: '/^[0-9a-f]{128}$/', reach: 'request' },
  {
    file: 'src/pki/decode-x5c.ts',
    text: '/^[A-Za-z0-9+/]+={0,2}$/',
    reach: 'store',
    near: (n) => [`${rep('A', n)}===`, `A${rep('=', n)}`],
  },
  { file: 'src/pki/directory-storage.ts', text: '/^[0-9A-Za-z_-]{1,128}$/', reach: 'store' },
  {
    file: 'src/service/ids.ts',
    text: '/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i',
    reach: 'request',
    near: (n) => [rep('aaaaaaaa-', n), rep('0', n)],
  },
  { file: 'src/service/rules/terms.ts', text: '/^[0-9a-f]{128}$/', reach: 'store' },
  {
    file: 'src/chmed23a/transmission.ts',
    text: '/^chmed23([a-z]+)(?:\\.([1-9][0-9]{0,5})\\/([1-9][0-9]{0,5}))?\\./i',
    reach: 'request',
    near: (n) => [
      `CHMED23${rep('a', n)}`,
      `CHMED23A.${rep('1', n)}/4.`,
      `CHMED23A.1/${rep('9', n)}`,
    ],
  },
  { file: 'src/chmed23a/transmission.ts', text: '/^chmed23/i', reach: 'request' },
  { file: 'src/document/read-document.ts', text: '/^chmed16a[01]/i', reach: 'request' },
  {
    file: 'src/http/read-bodies.ts',
    text: '/\\r?\\n/',
    reach: 'request',
    near: (n) => [rep('\r', n), rep('\r\n', n)],
  },
  // The SVG the QR library drew for one part, before it is placed in the stack.
  { file: 'src/qr/render-codes.ts', text: '/^<svg\\s/', reach: 'internal' },
];
