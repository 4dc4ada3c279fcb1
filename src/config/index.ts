/**
 * The one place that reads the environment (STYLE.md point 4): validated, defaulted, frozen,
 * then passed down. The table of variables is in the README.
 */
import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { ErxError } from '../errors.js';
import { readChainBounds } from './chain-bounds.js';
import type { ChainBounds } from './chain-bounds.js';
import { parseDuration } from './duration.js';
import { parseLogWitnesses } from './log-witnesses.js';
import { readMemoryBounds } from './memory-bounds.js';
import type { MemoryBounds } from './memory-bounds.js';
import type { LogWitnessConfig } from './log-witnesses.js';

export interface Config {
  /** HTTP port (`PORT`, default 8080). */
  readonly port: number;
  /** Address to bind (`ERX_HOST`, default 127.0.0.1). */
  readonly host: string;
  /** Data directory: SQLite file, keys, root CA (`ERX_DATA_DIR`, default `./data`). */
  readonly dataDir: string;
  /** `postgres://…` selects PostgreSQL; absent selects SQLite in the data dir. */
  readonly databaseUrl: string | undefined;
  /** Base address written into every link (`ERX_PRESCRIPTION_URL`). */
  readonly prescriptionUrl: string;
  /** External token service (`ERX_AUTH_URL`); absent selects the embedded one. */
  readonly authUrl: string | undefined;
  readonly authClientId: string | undefined;
  readonly authClientSecret: string | undefined;
  /** `gettokeninfo` or `rfc7662`; absent: chosen from the path of `ERX_AUTH_URL`. */
  readonly authProtocol: 'gettokeninfo' | 'rfc7662' | undefined;
  /** Zone of `issued_at` (`ERX_TIMEZONE`, default Europe/Zurich). */
  readonly timezone: string;
  /** How long a prescription is valid after its `Dt` at least (`ERX_PRESCRIPTION_VALIDITY`), ms. */
  readonly prescriptionValidityMs: number;
  /** How long a lock holds before it lapses (`ERX_LOCK_TTL`), ms. */
  readonly lockTtlMs: number;
  /** `ERX_DOCUMENT_FORMAT`: the release the desk composes prescriptions in (create takes both). */
  readonly documentFormat: 'CHMED16A' | 'CHMED23A';
  /** How long and how fast one prescription's history may grow (`ERX_CHAIN_*`). */
  readonly chainBounds: ChainBounds;
  /** Calls/s per token subject; 0 = off. */
  readonly rateLimitSubject: number;
  /** Anonymous calls/s per address; 0 = off. */
  readonly rateLimitAnon: number;
  /** Requests in progress at once before new ones get 503 (`ERX_MAX_IN_FLIGHT`); 0 = no bound. */
  readonly maxInFlight: number;
  /** Event-loop lag in ms from which new requests get 503 (`ERX_MAX_LAG_MS`); 0 = no bound. */
  readonly maxLagMs: number;
  /**
   * Signatures waiting per signing thread from which new calls that sign get 503
   * (`ERX_MAX_SIGNING_QUEUE`); 0 = no bound.
   */
  readonly maxSigningQueue: number;
  /**
   * Proxies whose `X-Forwarded-For` is believed (`ERX_TRUST_PROXY`): addresses or CIDRs, comma
   * separated; empty = none, the socket's address is the client's.
   */
  readonly trustProxy: readonly string[];
  /** Connections one client address may hold open at once (`ERX_MAX_CONNECTIONS_PER_ADDRESS`); 0 = no bound. */
  readonly maxConnectionsPerAddress: number;
  /** Where `/metrics` listens (`ERX_METRICS_ADDR`, default 127.0.0.1:9464); undefined = `off`. */
  readonly metricsAddr: { readonly host: string; readonly port: number } | undefined;
  /**
   * The key that binds stored token and secret hashes (`ERX_PEPPER`); absent = a key file in the
   * data directory, made at first start.
   */
  readonly pepper: string | undefined;
  /** Operator-given ledger root CA: certificate and private key PEM files (both or neither). */
  readonly rootCertPath: string | undefined;
  readonly rootKeyPath: string | undefined;
  /** pino level (`ERX_LOG_LEVEL`, default info). */
  readonly logLevel: string;
  /**
   * The transparency log's origin, the first line of its checkpoints and its key's name
   * (`ERX_LOG_ORIGIN`, default `<host of ERX_PRESCRIPTION_URL>/log`).
   */
  readonly logOrigin: string;
  /**
   * Whether the transparency log is kept (`ERX_LOG`, `on` or `off`, default on). Off: no leaves,
   * checkpoints or receipts, and verify does not consult the log (for comparison only).
   */
  readonly logEnabled: boolean;
  /** Longest wait of a mutating answer for its receipt (`ERX_LOG_RECEIPT_WAIT`, default 1s), ms. */
  readonly logReceiptWaitMs: number;
  /** Witnesses asked to cosign the log's checkpoints (`ERX_LOG_WITNESSES`, default none). */
  readonly logWitnesses: readonly LogWitnessConfig[];
  /** Address of a running erx for the client commands of the CLI (`ERX_URL`). */
  readonly serviceUrl: string;
  /** Bearer token for the client commands of the CLI (`ERX_TOKEN`). */
  readonly token: string | undefined;
  /** The bounds of the verification memory (`ERX_MEMORY_*`). */
  readonly memory: MemoryBounds;
}

type Env = Readonly<Record<string, string | undefined>>;

function invalid(name: string, why: string): ErxError {
  return new ErxError('bad_request', `configuration: ${name} ${why}`);
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw invalid(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw invalid(name, `must be between ${min} and ${max}`);
  return value;
}

function url(env: Env, name: string, fallback: string | undefined): string | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  try {
    new URL(raw);
  } catch {
    throw invalid(name, `must be an absolute URL, got "${raw}"`);
  }
  return raw;
}

function timezone(env: Env): string {
  const zone = env.ERX_TIMEZONE || 'Europe/Zurich';
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
  } catch {
    throw invalid('ERX_TIMEZONE', `is not a known time zone: "${zone}"`);
  }
  return zone;
}

/** At most about 100 years: a longer period is a typing error, not a policy. */
const MAX_DURATION_MS = 100 * 366 * 86_400_000;

function duration(env: Env, name: string, fallback: string): number {
  const raw = env[name] || fallback;
  const ms = parseDuration(raw);
  if (ms === undefined || ms > MAX_DURATION_MS) {
    throw invalid(name, `must be a positive whole number with a unit s, m, h or d, got "${raw}"`);
  }
  return ms;
}

function rootFiles(env: Env): Pick<Config, 'rootCertPath' | 'rootKeyPath'> {
  const cert = env.ERX_ROOT_CERT || undefined;
  const key = env.ERX_ROOT_KEY || undefined;
  if ((cert === undefined) !== (key === undefined)) {
    throw invalid('ERX_ROOT_CERT', 'and ERX_ROOT_KEY must be given together');
  }
  return { rootCertPath: cert && resolve(cert), rootKeyPath: key && resolve(key) };
}

/** `a.b.c.d`, an IPv6 address, or either with `/prefix`. */
function addressOrCidr(entry: string): boolean {
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return false;
  if (slash < 0) return true;
  const prefix = entry.slice(slash + 1);
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function trustProxy(env: Env): string[] {
  const raw = env.ERX_TRUST_PROXY ?? '';
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const bad = entries.find((entry) => !addressOrCidr(entry));
  if (bad !== undefined) {
    throw invalid('ERX_TRUST_PROXY', `must list addresses or CIDRs, got "${bad}"`);
  }
  return entries;
}

function metricsAddr(env: Env): Config['metricsAddr'] {
  const raw = env.ERX_METRICS_ADDR || '127.0.0.1:9464';
  if (raw === 'off') return undefined;
  const match = /^(?:\[([0-9A-Fa-f:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(raw);
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (host === undefined || !(port >= 0 && port <= 65535)) {
    throw invalid('ERX_METRICS_ADDR', `must be host:port or off, got "${raw}"`);
  }
  return { host, port };
}

function pepper(env: Env): string | undefined {
  const raw = env.ERX_PEPPER || undefined;
  if (raw !== undefined && raw.length < 32) {
    throw invalid('ERX_PEPPER', 'must be at least 32 characters (e.g. 32 random bytes, base64)');
  }
  return raw;
}

/**
 * A C2SP log origin: one line of printable ASCII without spaces or `+` (it is also the note key's
 * name), as checkpoints and verifier keys need it.
 */
function logOrigin(env: Env, prescriptionUrl: string): string {
  const raw = env.ERX_LOG_ORIGIN || `${new URL(prescriptionUrl).host}/log`;
  if (!/^[\x21-\x2a\x2c-\x7e]{1,200}$/.test(raw)) {
    throw invalid('ERX_LOG_ORIGIN', 'must be 1 to 200 printable ASCII characters, no space or "+"');
  }
  return raw;
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (raw !== 'on' && raw !== 'off') throw invalid(name, `must be on or off, got "${raw}"`);
  return raw === 'on';
}

function authProtocol(env: Env): Config['authProtocol'] {
  const raw = env.ERX_AUTH_PROTOCOL;
  if (raw === undefined || raw === '') return undefined;
  if (raw !== 'gettokeninfo' && raw !== 'rfc7662') {
    throw invalid('ERX_AUTH_PROTOCOL', 'must be gettokeninfo or rfc7662');
  }
  return raw;
}

function documentFormat(env: Env): Config['documentFormat'] {
  const raw = env.ERX_DOCUMENT_FORMAT;
  if (raw === undefined || raw === '' || raw === 'chmed16a') return 'CHMED16A';
  if (raw !== 'chmed23a') throw invalid('ERX_DOCUMENT_FORMAT', 'must be chmed16a or chmed23a');
  return 'CHMED23A';
}

/**
 * Reads, validates and freezes the configuration from `env` (default: the process environment);
 * `overrides` (e.g. command-line options) win over the environment.
 */
export function loadConfig(env: Env = process.env, overrides: Env = {}): Config {
  env = {
    ...env,
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
  };
  const port = integer(env, 'PORT', 8080, 0, 65535);
  const databaseUrl = url(env, 'ERX_DATABASE_URL', undefined);
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw invalid('ERX_DATABASE_URL', 'must start with postgres:// (or be absent for SQLite)');
  }
  const prescriptionUrl = url(
    env,
    'ERX_PRESCRIPTION_URL',
    `http://localhost:${port}/rx/`,
  ) as string;
  return Object.freeze({
    port,
    host: env.ERX_HOST || '127.0.0.1',
    dataDir: resolve(env.ERX_DATA_DIR || './data'),
    databaseUrl,
    prescriptionUrl,
    authUrl: url(env, 'ERX_AUTH_URL', undefined),
    authClientId: env.ERX_AUTH_CLIENT_ID || undefined,
    authClientSecret: env.ERX_AUTH_CLIENT_SECRET || undefined,
    authProtocol: authProtocol(env),
    timezone: timezone(env),
    prescriptionValidityMs: duration(env, 'ERX_PRESCRIPTION_VALIDITY', '365d'),
    lockTtlMs: duration(env, 'ERX_LOCK_TTL', '15m'),
    documentFormat: documentFormat(env),
    chainBounds: readChainBounds(
      (name, fallback, min, max) => integer(env, name, fallback, min, max),
      (name, fallback) => duration(env, name, fallback),
    ),
    rateLimitSubject: integer(env, 'ERX_RATE_LIMIT_SUBJECT', 200, 0, 1_000_000),
    rateLimitAnon: integer(env, 'ERX_RATE_LIMIT_ANON', 100, 0, 1_000_000),
    maxInFlight: integer(env, 'ERX_MAX_IN_FLIGHT', 256, 0, 1_000_000),
    maxLagMs: integer(env, 'ERX_MAX_LAG_MS', 0, 0, 60_000),
    maxSigningQueue: integer(env, 'ERX_MAX_SIGNING_QUEUE', 32, 0, 100_000),
    trustProxy: Object.freeze(trustProxy(env)),
    maxConnectionsPerAddress: integer(env, 'ERX_MAX_CONNECTIONS_PER_ADDRESS', 64, 0, 1_000_000),
    metricsAddr: metricsAddr(env),
    pepper: pepper(env),
    ...rootFiles(env),
    logLevel: env.ERX_LOG_LEVEL || 'info',
    logOrigin: logOrigin(env, prescriptionUrl),
    logEnabled: onOff(env, 'ERX_LOG', true),
    logReceiptWaitMs: duration(env, 'ERX_LOG_RECEIPT_WAIT', '1s'),
    logWitnesses: parseLogWitnesses(env.ERX_LOG_WITNESSES),
    serviceUrl: url(env, 'ERX_URL', `http://localhost:${port}`) as string,
    token: env.ERX_TOKEN || undefined,
    memory: readMemoryBounds((name, fallback, min, max) => integer(env, name, fallback, min, max)),
  });
}

export { DEFAULT_CHAIN_BOUNDS } from './chain-bounds.js';
export type { ChainBounds } from './chain-bounds.js';
export { DEFAULT_MEMORY_BOUNDS } from './memory-bounds.js';
export type { MemoryBounds } from './memory-bounds.js';
