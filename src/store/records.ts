/**
 * Rows as both engines return them (snake_case columns of `migrations.ts`) and their mapping to the
 * interface's row types. Integers go through `Number()`: SQLite returns numbers, PostgreSQL returns
 * `bigint` as a string (unix times stay far below 2^53, so the conversion is exact).
 */
import type {
  ClientRow,
  EventRow,
  IdempotencyRow,
  MedicamentRef,
  PrescriptionRow,
  StoredTerms,
  TokenRow,
  VerifiedHeadRow,
} from './types.js';

type Integer = number | string;

export interface PrescriptionRecord {
  id: string;
  issuer: string;
  issuer_actor: string;
  issued_at: Integer;
  medicaments: string;
  head_hash: string;
  terms: string | null;
}

export interface VerifiedHeadRecord {
  prescription_id: string;
  head_hash: string;
  seal: string;
}

export interface EventRecord {
  prescription_id: string;
  seq: Integer;
  id: string;
  parent_hash: string | null;
  body: string;
  hash: string;
  signature: string;
}

export interface IdempotencyRecord {
  actor: string;
  key: string;
  request_hash: string;
  prescription_id: string;
  event_id: string;
  answer: string | null;
  created_at: Integer;
}

export interface ClientRecord {
  client_id: string;
  secret_hash: string;
  role: string;
  name: string;
  description: string;
  sub: string;
  created_at: Integer;
  profile: string | null;
}

export interface TokenRecord {
  token_hash: string;
  client_id: string;
  expires_at: Integer;
  created_at: Integer;
}

/** A stored prescription as a {@link PrescriptionRow}. */
export function toPrescription(r: PrescriptionRecord): PrescriptionRow {
  return {
    id: r.id,
    issuer: r.issuer,
    issuerActor: r.issuer_actor,
    issuedAt: Number(r.issued_at),
    medicaments: medicamentsFromText(r.medicaments),
    headHash: r.head_hash,
    ...(r.terms === null ? {} : { terms: termsFromText(r.terms) }),
  };
}

/** Whether `value` is one medicament as {@link medicamentsText} writes it. */
function isMedicamentRef(value: unknown): value is MedicamentRef {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const m = value as Record<string, unknown>;
  const optional = (n: unknown): boolean => n === undefined || typeof n === 'number';
  return (
    typeof m.Id === 'string' &&
    typeof m.IdType === 'number' &&
    optional(m.NbPack) &&
    optional(m.Rep) &&
    optional(m.Subs)
  );
}

/**
 * The medicament list as stored. Text that is not such a list (an edited column) reads as no
 * medicament: a prescription always has one (SPEC.md §4), so no signed terms and no decision
 * match it, and the list and verify show the prescription as not valid instead of failing.
 */
export function medicamentsFromText(text: string): MedicamentRef[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  return Array.isArray(value) && value.every(isMedicamentRef) ? value : [];
}

/** The terms as stored: JSON text `{"expires_at": ms, "signature": hex}` in both engines. */
export function termsText(terms: StoredTerms | undefined): string | null {
  return terms === undefined
    ? null
    : JSON.stringify({ expires_at: terms.expiresAt, signature: terms.signature });
}

/** Stored terms text that is not what {@link termsText} writes reads as terms no key signed. */
function termsFromText(text: string): StoredTerms {
  try {
    const { expires_at, signature } = JSON.parse(text) as Record<string, unknown>;
    if (typeof expires_at === 'number' && typeof signature === 'string') {
      return { expiresAt: expires_at, signature };
    }
  } catch {
    // Falls through: an edited column.
  }
  return { expiresAt: 0, signature: '' };
}

/** A stored event as an {@link EventRow}; `body` is passed through untouched (SPEC.md §7). */
export function toEvent(r: EventRecord): EventRow {
  return {
    prescriptionId: r.prescription_id,
    seq: Number(r.seq),
    id: r.id,
    parentHash: r.parent_hash,
    body: r.body,
    hash: r.hash,
    signature: r.signature,
  };
}

/** A remembered call as an {@link IdempotencyRow} (`answer` absent when none was stored). */
export function toIdempotency(r: IdempotencyRecord): IdempotencyRow {
  return {
    actor: r.actor,
    key: r.key,
    requestHash: r.request_hash,
    prescriptionId: r.prescription_id,
    eventId: r.event_id,
    ...(r.answer === null ? {} : { answer: r.answer }),
    createdAt: Number(r.created_at),
  };
}

/** A stored client as a {@link ClientRow}. */
export function toClient(r: ClientRecord): ClientRow {
  return {
    clientId: r.client_id,
    secretHash: r.secret_hash,
    // The column has a CHECK constraint; anything else cannot be stored.
    role: r.role === 'prescriber' ? 'prescriber' : 'pharmacist',
    name: r.name,
    description: r.description,
    sub: r.sub,
    createdAt: Number(r.created_at),
    ...(r.profile === null ? {} : { profile: r.profile }),
  };
}

/** A stored token as a {@link TokenRow}. */
export function toToken(r: TokenRecord): TokenRow {
  return {
    tokenHash: r.token_hash,
    clientId: r.client_id,
    expiresAt: Number(r.expires_at),
    createdAt: Number(r.created_at),
  };
}

/** The medicament list as stored: JSON text in both engines. */
export function medicamentsText(medicaments: readonly MedicamentRef[]): string {
  return JSON.stringify(medicaments);
}

/** A stored verified head as a {@link VerifiedHeadRow}. */
export function toVerifiedHead(r: VerifiedHeadRecord): VerifiedHeadRow {
  return { prescriptionId: r.prescription_id, headHash: r.head_hash, seal: r.seal };
}
