/**
 * The medicaments the counter acts on: the service's stored ones (verify's `medicaments`, SPEC.md
 * §10), never the content a link carries, which may be altered. The document of a valid link only
 * adds how each id is meant (GTIN, Pharmacode, free text), for the product names.
 */
import { gtin13 } from '../../../src/catalog/gtin.js';
import type { VerifyResult } from '../api/types.js';
import type { DocumentView } from '../chmed/document-view.js';

/** One stored medicament with its packages. */
export interface StoredMedicament {
  id: string;
  /** The id's type (seed §2.2): from a valid document, else 2 for a valid GTIN, else unknown. */
  idType: number | undefined;
  substitutionAllowed: boolean;
  prescribed: number;
  dispensed: number;
  remaining: number;
}

/**
 * The stored medicaments of `result`, in document order; `doc` is the decoded document of the
 * link, passed only when the link is valid.
 */
export function storedMedicaments(
  result: VerifyResult,
  doc: DocumentView | undefined,
): StoredMedicament[] {
  return (result.medicaments ?? []).map((m, i) => {
    const own = doc?.medicaments[i];
    const idType = own?.id === m.id ? own.idType : gtin13(m.id) === undefined ? undefined : 2;
    return {
      id: m.id,
      idType,
      substitutionAllowed: m.substitution_allowed,
      prescribed: m.prescribed,
      dispensed: m.dispensed,
      remaining: m.remaining,
    };
  });
}
