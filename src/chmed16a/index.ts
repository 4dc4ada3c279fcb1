export { prescriptionSchema } from './schema.js';
export type { HcOrg, HcPerson, Medicament, Patient, Pos, Prescription } from './types.js';
export { assertPrescription, isPrescription, validatePrescription } from './validate.js';
export { encodeChmed, gzipDocument } from './encode.js';
export { decodeChmed, readChmed } from './decode.js';
export { lenientBase64 } from './lenient-base64.js';
export { DocumentDecodeError } from './decode-error.js';
export type { DocumentDecodeReason } from './decode-error.js';
export {
  CHMED_GZIP_PREFIX,
  CHMED_PREFIX,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_DEPTH,
  MAX_ENCODED_DATA_LENGTH,
} from './limits.js';
