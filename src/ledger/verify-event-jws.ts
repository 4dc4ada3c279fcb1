/**
 * An event signature checked on its own, without the event's body: the compact JWS's form
 * (`inspectJws`), its x5c leaf against a pinned root (`validateLeaf`) and the ES384 signature
 * under that leaf, as the chain check does (`EventVerifier`) but without the check of the leaf's
 * validity window at the event's time, which needs the body's timestamp. Receipts carry only the
 * JWS (docs/transparency.md).
 */
import type { LeafValidation, PinnedRoot, TrustStore, ValidatedLeaf } from '../pki/index.js';
import type { CheckFailure } from './chain-failure.js';
import { isSha256Hex } from './hash.js';
import { inspectJws, jwsSignatureHolds } from './inspect-jws.js';

/** Validates one x5c leaf under a root (a caller may remember results per leaf). */
export type LeafValidator = (
  leafBase64: string,
  der: Uint8Array,
  root: PinnedRoot,
) => Promise<LeafValidation>;

/** A verified event signature: the hash it signs, the leaf that signed it and its root. */
export interface VerifiedEventJws {
  readonly ok: true;
  readonly hash: string;
  readonly leaf: ValidatedLeaf;
  readonly root: PinnedRoot;
}

export type EventJwsVerification = VerifiedEventJws | ({ readonly ok: false } & CheckFailure);

/** The payload of a compact JWS as text when it is an event hash (64 lowercase hex), else undefined. */
export function eventJwsPayload(jws: string): string | undefined {
  const first = jws.indexOf('.');
  const second = first < 0 ? -1 : jws.indexOf('.', first + 1);
  if (second < 0 || second - first - 1 !== 86) return undefined;
  // 32 bytes of hex text are 64 bytes, 86 base64url characters; `inspectJws` checks the spelling.
  const text = Buffer.from(jws.slice(first + 1, second), 'base64url').toString('latin1');
  return isSha256Hex(text) ? text : undefined;
}

/**
 * Verifies `jws` as an event signature whose payload is the event hash: answers that hash, or the
 * failed check in the chain check's vocabulary (`signature` or `chain` and the reason).
 */
export async function verifyEventJws(
  jws: string,
  trustStore: TrustStore,
  validate: LeafValidator,
): Promise<EventJwsVerification> {
  const hash = eventJwsPayload(jws);
  if (hash === undefined) return { ok: false, check: 'signature', reason: 'jws_payload' };
  const form = inspectJws(jws, hash);
  if (!form.ok) return form;
  const root = trustStore.find(form.x5c.root);
  if (root === undefined) return { ok: false, check: 'chain', reason: 'untrusted_root' };
  const leaf = await validate(form.leafBase64, form.x5c.leaf, root);
  if (!leaf.ok) return { ok: false, check: 'chain', reason: leaf.reason };
  // The key is always the x5c leaf; the form (ES384, no other header member) was checked above.
  if (!jwsSignatureHolds(jws, leaf.leaf.publicKey)) {
    return { ok: false, check: 'signature', reason: 'jws_signature' };
  }
  return { ok: true, hash, leaf: leaf.leaf, root };
}
