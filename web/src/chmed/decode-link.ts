/** A whole link decoded for display: its parts and its document, or why it cannot be read. */
import { decodeDocument } from './decode.js';
import { documentView } from './document-view.js';
import type { DocumentView } from './document-view.js';
import { splitLink } from './link.js';
import type { LinkParts } from './link.js';

export type DecodedLink =
  | { state: 'none' }
  | { state: 'decoding' }
  | { state: 'bad' }
  | { state: 'ok'; link: string; parts: LinkParts; doc: DocumentView };

/** Decodes a link; `bad` when it is not one or its document cannot be read. */
export async function decodeLink(link: string): Promise<DecodedLink> {
  try {
    const parts = splitLink(link);
    const doc = documentView(await decodeDocument(parts.chmed));
    return { state: 'ok', link: link.trim(), parts, doc };
  } catch {
    // Not a link (LinkFormatError) or an unreadable document (DocumentDecodeError).
    return { state: 'bad' };
  }
}
