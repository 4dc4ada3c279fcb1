/**
 * The terms of a prescription (SPEC.md §10): what each medicament allows (packages prescribed,
 * whether it may be substituted) and when the prescription expires. They are fixed at create from
 * the signed document, which erx does not keep (it holds patient data), so the prescription row
 * keeps copies of what the rules need and a signature over them by the link keys, the keys that
 * sign the document's link. A rule decides only from terms whose signature verifies and whose
 * issuer is the create event's signed actor: an edited row is refused, never obeyed.
 */
import { canonicalJson } from '../../ledger/index.js';
import type { EventBody } from '../../ledger/index.js';
import type { LinkSigner, LinkVerificationKeys } from '../../link/index.js';
import { verify } from 'node:crypto';
import type { LruCache } from '../../lru-cache.js';
import type { MedicamentRef, PrescriptionRow, StoredTerms } from '../../store/types.js';

/** One medicament as the rules see it. */
export interface MedicamentTerms {
  /** The document's medicament `Id`. */
  readonly id: string;
  /** Packages: `(NbPack ?? 1) × (1 + repetitions)` ({@link prescribedPackages}). */
  readonly prescribed: number;
  /** False when the document says `Subs: 1` (CHMED23A `isNotSub: true`): not substituted. */
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
 * Redemptions after the first: CHMED16A `Rep` (absent: none); CHMED23A the count `v` of `reps`
 * (kept as `{t: 1, v: 1}` when the document has none, as the IG reads it), none for a duration
 * alone, which sets the validity instead (docs/decisions.md).
 */
export function repetitionsOf(ref: Pick<MedicamentRef, 'Rep' | 'Reps'>): number {
  if (ref.Reps === undefined) return ref.Rep ?? 0;
  return ref.Reps.t === 2 ? 0 : (ref.Reps.v ?? 0);
}

/**
 * Packages prescribed of one medicament (SPEC.md §10 quantities), within ±(2^53 − 1): `NbPack` is
 * any integer, and past that a product is inexact, or ±Infinity, which JSON cannot say.
 */
export function prescribedPackages(ref: Pick<MedicamentRef, 'NbPack' | 'Rep' | 'Reps'>): number {
  const packages = (ref.NbPack ?? 1) * (1 + repetitionsOf(ref));
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

// A CHMED23A duration unit (1 second … 5 week) in milliseconds; 6 month and 7 year are calendar.
const UNIT_MS: Readonly<Record<number, number>> = {
  1: 1000,
  2: 60_000,
  3: 3_600_000,
  4: 86_400_000,
  5: 7 * 86_400_000,
};

/** No medicament extends a prescription past a century: a later instant is no date erx keeps. */
const MAX_MONTHS = 1200;

/** Until when one medicament keeps a prescription valid, from its start `start`. */
function validUntil(start: number, m: Pick<MedicamentRef, 'Rep' | 'Reps'>): number {
  if (m.Reps === undefined) return addMonths(start, Math.min(MAX_MONTHS, m.Rep ?? 0));
  const { d, u } = m.Reps;
  if (d === undefined || u === undefined) return start;
  const unit = UNIT_MS[u];
  const months = u === 7 ? 12 * d : d;
  if (unit === undefined) return addMonths(start, Math.min(MAX_MONTHS, months));
  return Math.min(start + d * unit, addMonths(start, MAX_MONTHS));
}

/**
 * When a prescription dated `dt` expires: `Dt` plus the longer of `validityMs` and what its
 * medicaments allow, CHMED16A the largest `Rep` in months (SPEC.md §10), CHMED23A the longest
 * duration of `reps`. Undefined when `dt` is no instant JavaScript can read.
 */
export function expiryOf(
  dt: string,
  validityMs: number,
  medicaments: readonly Pick<MedicamentRef, 'Rep' | 'Reps'>[],
): number | undefined {
  const start = Date.parse(dt);
  if (!Number.isFinite(start)) return undefined;
  return Math.max(start + validityMs, ...medicaments.map((m) => validUntil(start, m)));
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
    const name = nameOf(terms.signature, message);
    if (this.#memo.get(name) === true) return true;
    const holds = signatureHolds(row.issuedAt, message, terms.signature, this.#keys);
    if (holds) this.#memo.set(name, true);
    return holds;
  }

  /**
   * Remembers the row's terms as verified without checking them here: a chain's seal vouches
   * that this instance verified them before (`../verification/verified-heads.ts`).
   */
  vouch(row: PrescriptionRow, terms: StoredTerms): void {
    this.#memo.set(termsName(row, terms), true);
  }
}

/**
 * The name of a row's terms, as the memo and a chain's seal know them: the signature and the
 * bytes it signs. Edited copies or another signature are another name.
 */
export function termsName(row: SignedFields, terms: StoredTerms): string {
  return nameOf(terms.signature, termsMessage(row, terms.expiresAt));
}

function nameOf(signature: string, message: Buffer): string {
  return `${signature}\u0000${message.toString('latin1')}`;
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
