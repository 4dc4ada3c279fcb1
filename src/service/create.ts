/**
 * Create (SPEC.md §3–5): encode the validated document as `CHMED16A1`, sign the link, and store
 * the prescription with its create event — no patient data, only ids, the issuer and the reduced
 * medicament list. A retry with the same `Idempotency-Key` rebuilds the identical link from the same
 * document, the stored issue time and the remembered signature (the key that made it may have been
 * rotated away since).
 */
import { encodeChmed } from '../chmed16a/index.js';
import type { Prescription } from '../chmed16a/index.js';
import { ErxError } from '../errors.js';
import type { Violation } from '../errors.js';
import { prescriptionHash } from '../ledger/index.js';
import { buildLink, formatIssuer, parseLink } from '../link/index.js';
import type { LinkSigner } from '../link/index.js';
import { fitsQrCode } from '../qr/render.js';
import type { IdempotencyRow } from '../store/types.js';
import { append } from './append.js';
import type { ServiceDeps } from './deps.js';
import { requireMaker } from './guards.js';
import { canonicalId } from './ids.js';
import { medicamentRefs } from './medicament-refs.js';
import { expiryOf, signTerms } from './terms.js';
import type { CallContext, CreateResult } from './types.js';

/** How the link will be answered. */
export interface CreateOptions {
  /** The answer is a QR code: a link too long to draw as one refuses the call, storing nothing. */
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

/** The answer of the first call a retry repeats, rebuilt from what was stored. */
async function replayed(
  deps: ServiceDeps,
  first: IdempotencyRow,
  chmed: string,
): Promise<CreateResult> {
  const row = await deps.store.getPrescription(first.prescriptionId);
  if (!row || first.answer === undefined) {
    throw new ErxError('not_found', 'The first call with this Idempotency-Key left nothing.');
  }
  const link = linkFor(deps, chmed, row.issuer, row.issuedAt, remembered(first.answer));
  return { link, prescriptionId: row.id, eventId: first.eventId };
}

/** Creates a prescription from a document that passed the schema (SPEC.md §4). */
export async function create(
  deps: ServiceDeps,
  doc: Prescription,
  ctx: CallContext,
  options: CreateOptions,
): Promise<CreateResult> {
  requireMaker(ctx.principal, 'create');
  const now = deps.clock.now();
  const medicaments = medicamentRefs(doc);
  const expiresAt = expiryOf(doc.Dt, deps.prescriptionValidityMs, medicaments);
  if (expiresAt === undefined || expiresAt <= now) throw expiredDocument(expiresAt);
  const chmed = encodeChmed(doc);
  const issuer = formatIssuer(ctx.principal.name, ctx.principal.sub);
  const issuedAt = Math.floor(now / 1000);
  const link = linkFor(deps, chmed, issuer, issuedAt);
  // Checked before anything is stored: a link that cannot be drawn is no answer.
  if (options.asQrCode && !fitsQrCode(link)) throw tooLargeForQr();
  const id = canonicalId(doc.Id);
  const copies = { id, issuer, issuerActor: ctx.principal.sub, issuedAt, medicaments };
  const done = await append(deps, ctx, {
    kind: 'new',
    prescription: { ...copies, terms: signTerms(deps.linkKeys, copies, expiresAt) },
    event: { type: 'create', prescription_hash: prescriptionHash(chmed) },
    // Only a call that can be repeated needs its link's signature remembered.
    ...(ctx.idempotency === undefined ? {} : { answer: parseLink(link).signatureHex }),
  });
  if (done.replay) return replayed(deps, done.replay, chmed);
  return { link, prescriptionId: id, eventId: done.written.row.id };
}

/** A document whose validity ended before it reached erx (SPEC.md §10): 400 at `/Dt`. */
function expiredDocument(expiresAt: number | undefined): ErxError {
  const violation: Violation =
    expiresAt === undefined
      ? {
          path: '/Dt',
          code: 'unreadable_date',
          message: 'is not a date-time erx can read',
          params: {},
        }
      : {
          path: '/Dt',
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
    'The prescription is too large for a QR code; ask for output-format=data.',
    { causeCode: 'too_large_for_qr' },
  );
}
