export { formatOf, readDocument } from './read-document.js';
export type { DocumentFormat, ReadDocument } from './read-document.js';
export {
  asPrescriptionDocument,
  decodeStrict,
  documentDate,
  documentId,
  documentViolations,
  transmissionOf,
} from './prescription-document.js';
export type { DecodedDocument, PrescriptionDocument } from './prescription-document.js';
