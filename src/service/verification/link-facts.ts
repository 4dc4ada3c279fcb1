/**
 * What verify learns from a link alone: its parse, its document's `Id` and schema check, the
 * medicaments the stored record must match, and its signature. All of it is a function of the link
 * text and the key ring, which is why the verification cache may remember it per link text and
 * key-ring generation (`verification-cache.ts`).
 */
import {
  asPrescriptionDocument,
  decodeStrict,
  documentId,
  readDocument,
} from '../../document/index.js';
import { ErxError } from '../../errors.js';
import {
  ForeignLinkError,
  parseLink,
  readForeignLink,
  verifyLinkSignature,
} from '../../link/index.js';
import type { LinkVerificationKeys, ParsedLink } from '../../link/index.js';
import type { MedicamentRef } from '../../store/types.js';
import { medicamentRefs } from '../rules/medicament-refs.js';

export interface LinkFacts {
  readonly link: ParsedLink;
  readonly id: string;
  readonly schemaOk: boolean;
  /** The document's medicaments as the store keeps them; undefined when the schema fails. */
  readonly medicaments: readonly MedicamentRef[] | undefined;
  readonly signatureOk: boolean;
}

/** The link keys as verify uses them: a ring that can say when it changed. */
export interface VerifyKeys extends LinkVerificationKeys {
  /** Changes whenever the keys change. */
  readonly generation: number;
  /** Looks for a changed ring (when due, or now with `force`); true when it changed. */
  refresh(force?: boolean): boolean;
}

/**
 * Reads link `text`: throws the parse and decode errors of a bad link (400), and
 * {@link ForeignLinkError} for a well-formed link of another issuer (SPEC.md §3).
 */
export function readLinkFacts(text: string, keys: VerifyKeys): LinkFacts {
  const foreign = readForeignLink(text);
  if (foreign !== undefined) {
    // Only a readable document makes it another service's link rather than a broken one.
    readDocument([foreign.chmed]);
    throw new ForeignLinkError(foreign.host);
  }
  const link = parseLink(text);
  const decoded = decodeStrict(link.chmed);
  const document = asPrescriptionDocument(decoded.format, decoded.doc);
  const id = document === undefined ? (decoded.doc.Id ?? decoded.doc.id) : documentId(document);
  if (typeof id !== 'string' || id === '') {
    throw new ErxError('bad_request', 'The prescription document carries no Id.');
  }
  let signatureOk = verifyLinkSignature(link, keys);
  // The key may be another instance's, made since this one last looked at the ring.
  if (!signatureOk && keys.refresh(true)) signatureOk = verifyLinkSignature(link, keys);
  return {
    link,
    id,
    schemaOk: document !== undefined,
    medicaments: document === undefined ? undefined : medicamentRefs(document),
    signatureOk,
  };
}
