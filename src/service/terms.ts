/**
 * The terms of a prescription (SPEC.md §10): what each medicament allows (packages prescribed,
 * whether it may be substituted) and when the prescription expires. They are fixed at create from
 * the signed document, which erx does not keep (it holds patient data), so the prescription row
 * keeps copies of what the rules need and a signature over them by the link keys, the keys that
 * sign the document's link. A rule decides only from terms whose signature verifies and whose
 * issuer is the create event's signed actor: an edited row is refused, never obeyed.
 */
import { canonicalJson } from '../ledger/index.js';
import type { EventBody } from '../ledger/index.js';
import type { LinkSigner, LinkVerificationKeys } from '../link/index.js';
import { verify } from 'node:crypto';
import type { LruCache } from '../lru-cache.js';
import type { MedicamentRef, PrescriptionRow, StoredTerms } from '../store/types.js';

/** One medicament as the rules see it. */
export interface MedicamentTerms {
  /** The document's medicament `Id`. */
  readonly id: string;
  /** Packages: `(NbPack ?? 1) × (1 + (Rep ?? 0))`. */
  readonly prescribed: number;
  /** False when the document says `Subs: 1` (must not be substituted). */
  readonly substitutionAllowed: boolean;
}

/** What the rules decide from. */
export interface Terms {
  /** The issuing prescriber's actor id: the create event's signed `actor`. */
  readonly issuerActor: string;
  /** In document order. */
  readonly medicaments: readonly MedicamentTerms[];
  /** Unix milliseconds. */
  readonly expiresAt: number;
}

/**
 * Packages prescribed of one medicament (SPEC.md §10 quantities), within ±(2^53 − 1): `NbPack` is
 * any integer, and past that a product is inexact, or ±Infinity, which JSON cannot say.
 */
export function prescribedPackages(ref: Pick<MedicamentRef, 'NbPack' | 'Rep'>): number {
  const packages = (ref.NbPack ?? 1) * (1 + (ref.Rep ?? 0));
  return Math.max(-Number.MAX_SAFE_INTEGER, Math.min(Number.MAX_SAFE_INTEGER, packages));
}

/** `t` plus `months` calendar months in UTC, the day clamped to the end of a shorter month. */
function addMonths(t: number, months: number): number {
  const date = new Date(t);
  const day = date.getUTCDate();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  date.setUTCDate(Math.min(day, lastDay));
  return date.getTime();
}

/**
 * When a prescription dated `dt` expires: `Dt` plus the longer of `validityMs` and its largest
 * `Rep` in months (SPEC.md §10). Undefined when `dt` is no instant JavaScript can read.
 */
export function expiryOf(
  dt: string,
  validityMs: number,
  medicaments: readonly Pick<MedicamentRef, 'Rep'>[],
): number | undefined {
  const start = Date.parse(dt);
  if (!Number.isFinite(start)) return undefined;
  const months = Math.max(0, ...medicaments.map((m) => m.Rep ?? 0));
  return Math.max(start + validityMs, addMonths(start, months));
}

/** The row fields the terms signature covers. */
type SignedFields = Pick<PrescriptionRow, 'id' | 'issuerActor' | 'issuedAt' | 'medicaments'>;

/** The bytes signed: a label no link's signed part can start with, then canonical JSON. */
function termsMessage(row: SignedFields, expiresAt: number): Buffer {
  const fields = {
    id: row.id,
    issuer_actor: row.issuerActor,
    issued_at: row.issuedAt,
    medicaments: row.medicaments,
    expires_at: expiresAt,
  };
  return Buffer.from(`erx prescription terms v1\u0000${canonicalJson(fields)}`, 'utf8');
}

/** Signs the terms of a new prescription with the current link key. */
export function signTerms(keys: LinkSigner, row: SignedFields, expiresAt: number): StoredTerms {
  const signature = Buffer.from(keys.sign(termsMessage(row, expiresAt), row.issuedAt));
  return { expiresAt, signature: signature.toString('hex') };
}

const SIGNATURE = /^[0-9a-f]{128}$/;

/**
 * Checks terms signatures, remembering the ones that verified (as the event verifier remembers
 * events, SPEC.md §7): a prescription dispensed again costs a lookup, not an Ed25519 check. Edited
 * copies are other bytes and miss. The memo belongs to the key ring it was made with.
 */
export class TermsVerifier {
  readonly #keys: LinkVerificationKeys;
  readonly #memo: LruCache<true>;

  constructor(keys: LinkVerificationKeys, memo: LruCache<true>) {
    this.#keys = keys;
    this.#memo = memo;
  }

  /** Whether the row's terms carry a signature by a link key current at its issue time. */
  holds(row: PrescriptionRow, terms: StoredTerms): boolean {
    if (!SIGNATURE.test(terms.signature)) return false;
    const message = termsMessage(row, terms.expiresAt);
    const key = `${terms.signature}\u0000${message.toString('latin1')}`;
    if (this.#memo.get(key) === true) return true;
    const holds = signatureHolds(row.issuedAt, message, terms.signature, this.#keys);
    if (holds) this.#memo.set(key, true);
    return holds;
  }
}

/** Whether `signatureHex` over `message` verifies under a link key current at `issuedAt`. */
function signatureHolds(
  issuedAt: number,
  message: Buffer,
  signatureHex: string,
  keys: LinkVerificationKeys,
): boolean {
  if (!SIGNATURE.test(signatureHex)) return false;
  const signature = Buffer.from(signatureHex, 'hex');
  return keys.keysCurrentAt(issuedAt).some((k) => verify(null, message, k, signature));
}

/** Why the terms of a row cannot be trusted. */
export type TermsFailure = 'terms_signature' | 'terms_missing' | 'issuer';

/**
 * The terms of `row` checked against their signature and the chain's `create` event, or why they
 * fail. A row without terms is refused too: one written before terms existed gets them from
 * `erx migrate` ({@link termsForOldRow}); any other has had them removed.
 */
export function readTerms(
  row: PrescriptionRow,
  create: EventBody,
  verifier: TermsVerifier,
  validityMs: number,
): Terms | TermsFailure {
  if (create.type !== 'create' || create.actor !== row.issuerActor) return 'issuer';
  if (row.terms === undefined) return 'terms_missing';
  if (!verifier.holds(row, row.terms)) return 'terms_signature';
  return copiedTerms(row, validityMs);
}

/**
 * The terms `erx migrate` signs for a row written before terms existed, vouching for its copies
 * as they stand: it expires `validityMs` after its issue time (its document's `Dt` is not kept).
 */
export function termsForOldRow(
  keys: LinkSigner,
  row: PrescriptionRow,
  validityMs: number,
): StoredTerms {
  return signTerms(keys, row, row.issuedAt * 1000 + validityMs);
}

/**
 * The terms as the row's copies say, unchecked: what verify shows of a row whose terms fail (it
 * reports the failure beside them). Without terms, the row is shown as expiring `validityMs`
 * after its issue time.
 */
export function copiedTerms(row: PrescriptionRow, validityMs: number): Terms {
  return {
    issuerActor: row.issuerActor,
    medicaments: row.medicaments.map((m) => ({
      id: m.Id,
      prescribed: prescribedPackages(m),
      substitutionAllowed: m.Subs !== 1,
    })),
    expiresAt: row.terms?.expiresAt ?? row.issuedAt * 1000 + validityMs,
  };
}
