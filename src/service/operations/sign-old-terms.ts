/**
 * `erx migrate` after the terms column arrived: prescriptions written before it have no signed
 * terms and refuse every change until they get some. The operator who holds the link keys vouches
 * for their rows as they stand by running it (docs/decisions.md "The terms are signed with the
 * link keys"); nothing signs them implicitly, so a row whose terms were removed stays refused.
 */
import type { LinkSigner } from '../../link/index.js';
import type { Store } from '../../store/types.js';
import { termsForOldRow } from '../rules/terms.js';

const PAGE = 500;

/**
 * Signs the terms of every prescription that has none; answers how many were signed. `keys` is
 * opened only when one needs signing.
 */
export async function signOldTerms(
  store: Store,
  openKeys: () => LinkSigner,
  validityMs: number,
): Promise<number> {
  let keys: LinkSigner | undefined;
  let signed = 0;
  let after: string | undefined;
  for (;;) {
    const ids = await store.prescriptions.ids(after, PAGE);
    if (ids.length === 0) return signed;
    for (const id of ids) {
      const row = (await store.readChain(id, { remember: false }))?.state.prescription;
      // A row whose medicament copies do not read (none) is no prescription to vouch for.
      if (row === undefined || row.terms !== undefined || row.medicaments.length === 0) continue;
      keys ??= openKeys();
      if (await store.prescriptions.addTerms(id, termsForOldRow(keys, row, validityMs)))
        signed += 1;
    }
    after = ids[ids.length - 1];
  }
}
