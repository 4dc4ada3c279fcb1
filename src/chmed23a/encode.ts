/** Writing a CHMED23A document as ChTransmissionFormat year 23, in one piece. */
import { gzipDocument } from '../chmed16a/index.js';
import { CHMED23A_PREFIX } from './transmission.js';

/**
 * `CHMED23A.` and the base64 of the gzip of `doc`'s JSON (ChTransmissionFormat year 23); refuses
 * what a reader would refuse, as `encodeChmed` does.
 */
export function encodeChmed23(doc: object): string {
  return `${CHMED23A_PREFIX}.${gzipDocument(doc)}`;
}
