/**
 * The form of an event signature, checked before any public-key work (SPEC.md §7): compact
 * serialisation, protected header exactly `{"alg":"ES384","x5c":[leaf, root]}` — so `none`,
 * HMAC, other curves, `crit`, `jku`, `x5u`, `jwk` and `kid` never get as far as a key — and
 * the payload equal to the event hash.
 */
import type { KeyObject } from 'node:crypto';
import { decodeX5c, es384SignatureHolds } from '../pki/index.js';
import type { X5cPair } from '../pki/index.js';
import { parseJsonSafe } from '../json/index.js';
import type { CheckFailure } from './chain-failure.js';
import { LEDGER_JWS_ALG } from './sign-event-hash.js';

/** Far above any ledger signature (two certificates, ~2 KiB); refuses absurd input early. */
const MAX_JWS_LENGTH = 64 * 1024;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

export type JwsInspection =
  | { readonly ok: true; readonly x5c: X5cPair; readonly leafBase64: string }
  | ({ readonly ok: false } & CheckFailure);

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes one segment in its canonical spelling only; `undefined` otherwise. */
function segmentText(segment: string): string | undefined {
  if (!BASE64URL.test(segment)) return undefined;
  const bytes = Buffer.from(segment, 'base64url');
  if (bytes.toString('base64url') !== segment) return undefined;
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

function readHeader(text: string): Record<string, unknown> | undefined {
  try {
    const value = parseJsonSafe(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Whether the signature of `jws`, a compact JWS of the form {@link inspectJws} accepted, is the
 * ES384 signature of its header and payload under `key` (the x5c leaf's).
 */
export function jwsSignatureHolds(jws: string, key: KeyObject): boolean {
  const dot = jws.lastIndexOf('.');
  return es384SignatureHolds(key, jws.slice(0, dot), jws.slice(dot + 1));
}

/** Checks everything about `jws` that needs no key, against the expected payload `hash`. */
export function inspectJws(jws: string, hash: string): JwsInspection {
  const parts = jws.length <= MAX_JWS_LENGTH ? jws.split('.') : [];
  if (parts.length !== 3) return { ok: false, check: 'signature', reason: 'jws_format' };
  const headerText = segmentText(parts[0] ?? '');
  const header = headerText === undefined ? undefined : readHeader(headerText);
  if (header === undefined) return { ok: false, check: 'signature', reason: 'jws_format' };
  if (header.alg !== LEDGER_JWS_ALG) return { ok: false, check: 'signature', reason: 'jws_alg' };
  // Exactly our own spelling: no other parameter, no reordering, no whitespace, no duplicates.
  if (headerText !== JSON.stringify({ alg: LEDGER_JWS_ALG, x5c: header.x5c })) {
    return { ok: false, check: 'signature', reason: 'jws_header' };
  }
  if (segmentText(parts[1] ?? '') !== hash) {
    return { ok: false, check: 'signature', reason: 'jws_payload' };
  }
  if (!BASE64URL.test(parts[2] ?? ''))
    return { ok: false, check: 'signature', reason: 'jws_format' };
  const x5c = decodeX5c(header.x5c);
  if (x5c === undefined) return { ok: false, check: 'chain', reason: 'x5c_format' };
  return { ok: true, x5c, leafBase64: (header.x5c as string[])[0] as string };
}
