/** The display view of a decoded document, whichever release it is in. */
import type { DecodedDocument } from './decode.js';
import { chmed23View } from './document-view-23.js';
import { documentView } from './document-view.js';
import type { DocumentView } from './document-view.js';

export function viewOf(decoded: DecodedDocument): DocumentView {
  return decoded.format === 'CHMED23A' ? chmed23View(decoded.doc) : documentView(decoded.doc);
}
