/** A whole link decoded for display: its parts and its document, or why it cannot be read. */
import { readForeignLink } from '../../../src/link/foreign.js';
import type { ForeignLink } from '../../../src/link/foreign.js';
import { decodeDocument } from './decode.js';
import type { DocumentView } from './document-view.js';
import { splitLink } from './link.js';
import { viewOf } from './view-of.js';
import type { LinkParts } from './link.js';

export type { ForeignLink };

export type DecodedLink =
  | { state: 'none' }
  | { state: 'decoding' }
  | { state: 'bad' }
  | { state: 'ok'; link: string; parts: LinkParts; doc: DocumentView }
  /**
   * A link another service issued (SPEC.md §3 "Links erx did not issue"): its document can be
   * shown, but erx cannot verify it, so it is never sent to the service.
   */
  | { state: 'foreign'; link: string; foreign: ForeignLink; doc: DocumentView };

/** Decodes a link; `bad` when it is not one or its document cannot be read. */
export async function decodeLink(link: string): Promise<DecodedLink> {
  try {
    const foreign = readForeignLink(link);
    if (foreign !== undefined) {
      const doc = viewOf(await decodeDocument(foreign.chmed));
      return { state: 'foreign', link: link.trim(), foreign, doc };
    }
    const parts = splitLink(link);
    const doc = viewOf(await decodeDocument(parts.chmed));
    return { state: 'ok', link: link.trim(), parts, doc };
  } catch {
    // Not a link (LinkFormatError) or an unreadable document (DocumentDecodeError).
    return { state: 'bad' };
  }
}
