/**
 * The status of a prescription for the holder of its link (SPEC.md §10 "Who sees what"): the
 * patient view must say whether a prescription has expired and what is left to collect, which the
 * short verify answer does not hold. A link whose signature verifies, whose document hash is the
 * one recorded at create and whose chain passes its checks proves that its holder was handed the
 * prescription, so it opens that much of its state; any other link gets exactly the anonymous
 * verify answer (a failing signature: every flag false, nothing read from the store), so a bare id
 * is no oracle. Built on verify's answers and its cache: nothing of its own is remembered.
 */
import { ErxError } from '../../errors.js';
import type { ServiceDeps } from '../deps.js';
import { canonicalId } from '../ids.js';
import type { PrescriptionStatus, StatusResult, VerifyFull, VerifyShort } from '../types.js';
import { answerFor, knownLink, unsigned } from './verify.js';

/** The six fields of the short answer, out of either variant. */
function shortOf(answer: VerifyShort): VerifyShort {
  const { prescription_id, issued_at, issued_by, valid, revoked, dispensed } = answer;
  return { prescription_id, issued_at, issued_by, valid, revoked, dispensed };
}

/** What the holder of a genuine link may know: the short answer, the validity end, packages. */
function statusOf(full: VerifyFull): PrescriptionStatus {
  return {
    ...shortOf(full),
    expires_at: full.expires_at,
    expired: full.expired,
    medicaments: full.medicaments.map(({ id, prescribed, dispensed, remaining }) => ({
      id,
      prescribed,
      dispensed,
      remaining,
    })),
  };
}

/** The status of the prescription of link `text` for whoever holds it (no token needed). */
export async function status(deps: ServiceDeps, text: string): Promise<StatusResult> {
  const link = knownLink(deps, text);
  if (!link.facts.signatureOk) return unsigned(deps, link.facts);
  const chain = (await deps.store.readChain(canonicalId(link.facts.id)))?.state;
  if (!chain) throw new ErxError('not_found', 'No prescription with this id.');
  const { answer } = await answerFor(deps, link, chain, true);
  if (!('tampering_detection_result' in answer)) return shortOf(answer);
  const checks = answer.tampering_detection_result;
  const genuine = checks.prescription_hash_check_passed && checks.logs_check_passed;
  return genuine ? statusOf(answer) : shortOf(answer);
}
