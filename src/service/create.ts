/**
 * Create (SPEC.md §3–5): validate the document, encode it as `CHMED16A1`, sign the link, and store
 * the prescription with its create event — no patient data, only ids, the issuer and the reduced
 * medicament list. A retry with the same `Idempotency-Key` rebuilds the identical link from the same
 * body, the stored issue time and the remembered signature (the key that made it may have been
 * rotated away since).
 */
import { encodeChmed, prescriptionHash } from '../chmed16a/index.js';
import { appendEvent } from '../ledger/index.js';
import { buildLink, formatIssuer, parseLink } from '../link/index.js';
import type { LinkSigner } from '../link/index.js';
import { IdempotencyRace } from '../store/races.js';
import type { ServiceDeps } from './deps.js';
import { requireRole } from './guards.js';
import { idempotencyRow, replayOf } from './idempotency.js';
import { medicamentRefs } from './medicament-refs.js';
import { readPrescriptionForCreate } from './read-document.js';
import type { CallContext, CreateResult } from './types.js';

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

async function replayCreate(
  deps: ServiceDeps,
  ctx: CallContext,
  chmed: string,
): Promise<CreateResult | undefined> {
  const first = await replayOf(deps, ctx);
  if (!first?.answer) return undefined;
  const row = await deps.store.getPrescription(first.prescriptionId);
  if (!row) return undefined;
  const link = linkFor(deps, chmed, row.issuer, row.issuedAt, remembered(first.answer));
  return { link, prescriptionId: row.id };
}

/**
 * Creates a prescription from a create body (JSON document or CHMED16A string). `checkLink` may
 * refuse the signed link (by throwing) before anything is stored.
 */
export async function create(
  deps: ServiceDeps,
  body: string,
  ctx: CallContext,
  checkLink?: (link: string) => void,
): Promise<CreateResult> {
  requireRole(ctx.principal, 'prescriber');
  const doc = readPrescriptionForCreate(body);
  const chmed = encodeChmed(doc);
  const replay = await replayCreate(deps, ctx, chmed);
  if (replay) return replay;

  const issuer = formatIssuer(ctx.principal.name, ctx.principal.sub);
  const issuedAt = Math.floor(deps.now() / 1000);
  const link = linkFor(deps, chmed, issuer, issuedAt);
  checkLink?.(link);
  const event = await appendEvent(
    undefined,
    {
      type: 'create',
      reference: doc.Id,
      actor: ctx.principal.sub,
      actor_name: ctx.principal.name,
      prescription_hash: prescriptionHash(chmed),
    },
    deps.signer,
  );
  const row = {
    id: doc.Id,
    issuer,
    issuerActor: ctx.principal.sub,
    issuedAt,
    medicaments: medicamentRefs(doc),
    headHash: event.hash,
    eventCount: 1,
  };
  const idempotency = idempotencyRow(deps, ctx, doc.Id, event.id, parseLink(link).signatureHex);
  try {
    await deps.store.insertPrescription(
      row,
      idempotency
        ? { event: { ...event, prescriptionId: doc.Id }, idempotency }
        : { event: { ...event, prescriptionId: doc.Id } },
    );
  } catch (error) {
    if (error instanceof IdempotencyRace) {
      const winner = await replayCreate(deps, ctx, chmed);
      if (winner) return winner;
    }
    throw error;
  }
  deps.onAppend?.('create');
  return { link, prescriptionId: doc.Id };
}
