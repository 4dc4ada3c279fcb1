/**
 * Create (SPEC.md §3–5): encode the validated document (`CHMED16A1`, or CHMED23A as sent), sign the link, and store
 * the prescription with its create event — no patient data, only ids, the issuer and the reduced
 * medicament list. A retry with the same `Idempotency-Key` rebuilds the identical link from the same
 * document, the stored issue time and the remembered signature (the key that made it may have been
 * rotated away since).
 */
import { documentDate, documentId, transmissionOf } from '../../document/index.js';
import type { PrescriptionDocument } from '../../document/index.js';
import { ErxError } from '../../errors.js';
import type { Violation } from '../../errors.js';
import { prescriptionHash } from '../../ledger/index.js';
import { buildLink, formatIssuer, parseLink } from '../../link/index.js';
import type { LinkSigner } from '../../link/index.js';
import { fitsQrCode } from '../../qr/fits.js';
import { partLinksToFit } from '../../link/parts.js';
import type { IdempotencyRow } from '../../store/types.js';
import { append } from '../append/append.js';
import { replayedEvent } from '../append/idempotency.js';
import type { ServiceDeps } from '../deps.js';
import { requireMaker } from '../rules/guards.js';
import { canonicalId } from '../ids.js';
import { medicamentRefs } from '../rules/medicament-refs.js';
import { expiryOf, signTerms } from '../rules/terms.js';
import type { CallContext, CreateResult } from '../types.js';

/** How the link will be answered. */
export interface CreateOptions {
  /**
   * The answer is an image of QR codes: a link too long to draw as one code, or as the codes of
   * at most 100 part links, refuses the call, storing nothing.
   */
  readonly asQrCode: boolean;
}

function linkFor(
  deps: ServiceDeps,
  chmed: string,
  issuer: string,
  issuedAt: number,
  keyring: LinkSigner = deps.linkKeys,
): string {
  return buildLink({ prescriptionUrl: deps.prescriptionUrl, chmed, issuer, issuedAt, keyring });
}

/** A signer that answers the signature made the first time. */
function remembered(signatureHex: string): LinkSigner {
  return { sign: () => Buffer.from(signatureHex, 'hex') };
}

/**
 * The answer of the first call a retry repeats, rebuilt from what was stored: only when it
 * remembers the signed create event of the document's id, by the caller (`replayedEvent`).
 */
async function replayed(
  deps: ServiceDeps,
  ctx: CallContext,
  first: IdempotencyRow,
  id: string,
  chmed: string,
): Promise<CreateResult> {
  const target = { prescriptionId: id, types: ['create'] } as const;
  const { state } = await replayedEvent(deps, ctx, first, target);
  const row = state.prescription;
  if (first.answer === undefined) {
    throw new ErxError('not_found', 'The first call with this Idempotency-Key left nothing.');
  }
  const link = linkFor(deps, chmed, row.issuer, row.issuedAt, remembered(first.answer));
  return { link, ...partsOf(link), prescriptionId: row.id, eventId: first.eventId };
}

/**
 * The part links of a CHMED23A link too large for one QR code (docs/decisions.md "One signed link
 * over several QR codes"); nothing for a link that fits one; undefined for a link that fits no
 * code nor 100 of them.
 */
function partsOf(link: string): { parts?: string[] } | undefined {
  const parts = partLinksToFit(link, fitsQrCode);
  if (parts === undefined) return undefined;
  return parts.length > 1 ? { parts } : {};
}

/** Creates a prescription from a document that passed the schema (SPEC.md §4). */
export async function create(
  deps: ServiceDeps,
  doc: PrescriptionDocument,
  ctx: CallContext,
  options: CreateOptions,
): Promise<CreateResult> {
  requireMaker(ctx.principal, 'create');
  const now = deps.clock.now();
  const medicaments = medicamentRefs(doc);
  const date = documentDate(doc);
  const expiresAt = expiryOf(date.dt, deps.prescriptionValidityMs, medicaments);
  if (expiresAt === undefined || expiresAt <= now) throw expiredDocument(expiresAt, date.path);
  const chmed = transmissionOf(doc);
  const issuer = formatIssuer(ctx.principal.name, ctx.principal.sub);
  const issuedAt = Math.floor(now / 1000);
  const link = linkFor(deps, chmed, issuer, issuedAt);
  const codes = partsOf(link);
  // Checked before anything is stored: a link that cannot be drawn is no answer.
  if (options.asQrCode && codes === undefined) throw tooLargeForQr();
  const id = canonicalId(documentId(doc));
  const copies = { id, issuer, issuerActor: ctx.principal.sub, issuedAt, medicaments };
  const done = await append(deps, ctx, {
    kind: 'new',
    prescription: { ...copies, terms: signTerms(deps.linkKeys, copies, expiresAt) },
    event: { type: 'create', prescription_hash: prescriptionHash(chmed) },
    // Only a call that can be repeated needs its link's signature remembered.
    ...(ctx.idempotency === undefined ? {} : { answer: parseLink(link).signatureHex }),
  });
  if (done.replay) return replayed(deps, ctx, done.replay, id, chmed);
  return { link, ...codes, prescriptionId: id, eventId: done.written.row.id };
}

/** A document whose validity ended before it reached erx (SPEC.md §10): 400 at its date. */
function expiredDocument(expiresAt: number | undefined, path: string): ErxError {
  const violation: Violation =
    expiresAt === undefined
      ? {
          path,
          code: 'unreadable_date',
          message: 'is not a date-time erx can read',
          params: {},
        }
      : {
          path,
          code: 'expired',
          message: `the prescription expired at ${new Date(expiresAt).toISOString()}`,
          params: { expires_at: new Date(expiresAt).toISOString() },
        };
  return new ErxError('bad_request', 'The prescription document is invalid.', {
    causeCode: 'invalid_document',
    violations: [violation],
  });
}

function tooLargeForQr(): ErxError {
  return new ErxError(
    'bad_request',
    'The prescription is too large for a QR code (a CHMED16A link must fit one code, a CHMED23A ' +
      'link at most 100); shorten the document.',
    { causeCode: 'too_large_for_qr' },
  );
}
