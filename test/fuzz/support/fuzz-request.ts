/** The shapes the request generator works with (see `requests.ts`). */
import type { HeaderValue } from './headers.js';
import type { LinkSign } from './links.js';

/** One generated request. */
export interface FuzzRequest {
  /** The route family, for the counts. */
  family: string;
  method: string;
  url: string;
  headers: Record<string, HeaderValue>;
  body?: string | Buffer;
}

/** A prescription the fuzzer has seen created, and what it learnt about it. */
export interface Target {
  id: string;
  link: string | undefined;
  medIds: string[];
  eventIds: string[];
}

/** Who can call: tokens of both roles and the registered client credentials. */
export interface Callers {
  doctor: string;
  doctor2: string;
  pharmacist: string;
  pharmacist2: string;
  clientId: string;
  secret: string;
}

/** What the generator builds on. */
export interface FuzzContext {
  callers: Callers;
  /** Recently created prescriptions, newest last. */
  pool: Target[];
  sign: LinkSign;
  /** The configured prescription address. */
  base: string;
  /** Share of requests sent unmutated. */
  validShare: number;
  /** Share of token-service requests that carry full client credentials (each runs scrypt). */
  credentialShare: number;
}
