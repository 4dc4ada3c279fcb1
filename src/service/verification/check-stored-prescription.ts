/**
 * The prescription record kept beside a chain holds copies, and the chain's checks do not cover
 * them: `issuer` and `issued_at` copy the link's signed `i` and `t` (verify shows them as
 * `issued_by` and `issued_at`), `medicaments` the signed document (dispense decides from it), and
 * `issuer_actor` the create event's signed `actor` (revoke and unlock decide from it). An edited
 * copy would change an answer or a decision unseen, so verify requires each to equal its original.
 * `event_count` is not checked: nothing reads it.
 */
import { isDeepStrictEqual } from 'node:util';
import type { EventBody } from '../../ledger/index.js';
import type { ParsedLink } from '../../link/index.js';
import type { MedicamentRef, PrescriptionRow } from '../../store/types.js';

/**
 * True when the stored record agrees with the link, its document's medicaments (`undefined` when
 * the document fails the schema: the answer is invalid anyway) and the chain's create event.
 */
export function storedPrescriptionMatches(
  row: PrescriptionRow,
  link: Pick<ParsedLink, 'issuer' | 'issuedAt'>,
  medicaments: readonly MedicamentRef[] | undefined,
  create: EventBody | undefined,
): boolean {
  return (
    row.issuer === link.issuer &&
    row.issuedAt === link.issuedAt &&
    create?.type === 'create' &&
    row.issuerActor === create.actor &&
    (medicaments === undefined || sameMedicaments(row.medicaments, medicaments))
  );
}

/**
 * The stored list against the document's. A row written before `Subs` was kept has none: its
 * entries compare without it (a `Subs` removed from a newer row fails its terms signature).
 */
function sameMedicaments(
  stored: readonly MedicamentRef[],
  signed: readonly MedicamentRef[],
): boolean {
  const withoutSubs = (m: MedicamentRef | undefined): MedicamentRef | undefined => {
    if (m === undefined) return undefined;
    const kept = { ...m };
    delete kept.Subs;
    return kept;
  };
  return (
    stored.length === signed.length &&
    stored.every((m, i) =>
      m.Subs === undefined
        ? isDeepStrictEqual(withoutSubs(m), withoutSubs(signed[i]))
        : isDeepStrictEqual(m, signed[i]),
    )
  );
}
