/**
 * The event feed (SPEC.md §7 events in commit order): what a prescriber or a pharmacist may see of
 * the ledger, page by page after a cursor. Who sees which event is the store's rule
 * (`FeedStore.read`), decided by the log alone, so a cursor resumed later sees exactly what a live
 * reader saw. The feed it reads is checked (`checked-feed.ts`: each row against its signed event);
 * the events are shown as verify shows them, and verify checks whole chains.
 */
import { parseEventShape } from '../../ledger/index.js';
import type { FeedItem, FeedPage } from '../../api/feed.js';
import type { FeedRow, FeedStore, FeedViewer } from '../../store/types.js';
import { eventView } from '../view/event-view.js';
import type { FeedClock } from './feed-clock.js';
import { formatCursor } from './feed-cursor.js';

/** The feed item of `row`, or undefined when its stored body no longer reads as an event. */
export function feedItem(row: FeedRow): FeedItem | undefined {
  const parsed = parseEventShape(row.event.body);
  // A broken body is left out rather than shown half: verify reports the broken chain.
  if (!parsed.ok) return undefined;
  // The store says whether a cancel names the event, which is what decides `cancellable`.
  const named = row.cancelled ? new Set([parsed.body.id]) : new Set<string>();
  return {
    cursor: formatCursor(row.position),
    prescription_id: row.event.prescriptionId,
    event: eventView(parsed.body, row.event, { named }),
  };
}

/** Rows a viewer may see, and the position up to which it has seen everything (its next cursor). */
export interface FeedRowsPage {
  readonly rows: readonly FeedRow[];
  readonly through: number;
}

/**
 * What `viewer` may see in (`after`, `upTo`], at most `limit` rows: a full page has been seen
 * through its last row, a shorter one through `upTo`, and a cursor at or past `upTo` (another
 * database's) is not moved back, or the reader would repeat.
 */
export async function readFeedRows(
  feed: Pick<FeedStore, 'read'>,
  viewer: FeedViewer,
  after: number,
  upTo: number,
  limit: number,
): Promise<FeedRowsPage> {
  if (upTo <= after) return { rows: [], through: after };
  const rows = await feed.read(viewer, after, upTo, limit);
  const last = rows[rows.length - 1];
  return { rows, through: rows.length === limit && last !== undefined ? last.position : upTo };
}

/**
 * The events `viewer` may see after position `after`, at most `limit`, in position order, up to
 * the head as it stands now. `next` is the last answered position when the page is full, else
 * the head: the reader has seen everything up to it.
 */
export async function readFeedPage(
  feed: { readonly store: Pick<FeedStore, 'read'>; readonly clock: FeedClock },
  viewer: FeedViewer,
  after: number,
  limit: number,
): Promise<FeedPage> {
  const { store, clock } = feed;
  // Through the clock: a look that starts now, after any append answered here before.
  const head = await clock.look();
  const { rows, through } = await readFeedRows(store, viewer, after, head, limit);
  return {
    events: rows.flatMap((row) => feedItem(row) ?? []),
    next: formatCursor(through),
  };
}
