/**
 * The feed's rows as signed (docs/decisions.md "The feed decides from signed events"). The store
 * selects rows by the copies of their bodies (`actor`, `type`, `cancels`) and by the
 * prescription's `issuer_actor`, which anyone who can write to the database can change, and an
 * inserted row needs no key. So every row the store answers is checked before it is served: its
 * body is its canonical event, hashes to its hash, belongs to its prescription and is signed
 * under a pinned root (`EventVerifier`, which remembers what it verified, so a row costs a hash
 * and a lookup), and its copies equal the body. Who sees it is then decided again from signed
 * events only: the issuer is the signed actor of the chain's create event, a pharmacy is involved
 * by a signed dispense or cancel of its own, and a dispense is shown cancelled only when a signed
 * cancel names it. The evidence comes with the row in the same query (`FeedEvidence`): no row
 * costs another query. A row that fails is left out, as if the viewer could not see it, and a page
 * it leaves short is filled from the rows after it; verify and the audit report the chain.
 */
import { checkEventHash, parseTimestamp } from '../../ledger/index.js';
import type { EventBody, EventVerifier } from '../../ledger/index.js';
import { INVOLVING, seesFeedRow } from '../../store/feed-rows.js';
import type {
  FeedEvent,
  FeedRow,
  FeedStore,
  FeedViewer,
  FeedWindowRow,
} from '../../store/types.js';

/** The feed's two reads, as the store answers them and as {@link checkedFeed} answers them. */
export type FeedReads = Pick<FeedStore, 'read' | 'readWindow'>;

const INVOLVES: ReadonlySet<string> = new Set(INVOLVING);

/** The body `event`'s copies should hold of a cancel's target. */
function cancelsOf(body: EventBody): string | null {
  return body.type === 'cancel' ? (body.event_data.EventId ?? null) : null;
}

/**
 * The checks of one read: each stored event at most once, whichever rows it stands beside (a
 * create event stands beside every event of its chain).
 */
class ReadCheck {
  readonly #verifier: EventVerifier;
  readonly #bodies = new Map<string, Promise<EventBody | undefined>>();

  constructor(verifier: EventVerifier) {
    this.#verifier = verifier;
  }

  /** The signed body of `event`, or undefined when it or its copies fail. */
  body(event: FeedEvent | undefined): Promise<EventBody | undefined> {
    if (event === undefined) return Promise.resolve(undefined);
    // One read answers one stored row per key (the primary key), wherever it appears.
    const key = `${event.prescriptionId}\u0000${event.seq}`;
    let body = this.#bodies.get(key);
    if (body === undefined) {
      body = this.#check(event);
      this.#bodies.set(key, body);
    }
    return body;
  }

  async #check(event: FeedEvent): Promise<EventBody | undefined> {
    const read = checkEventHash(event, event.prescriptionId);
    if (!read.ok) return undefined;
    const { body } = read;
    if (event.actor !== body.actor || event.type !== body.type) return undefined;
    if (event.cancels !== cancelsOf(body)) return undefined;
    return (await this.#verifier.verify(event, body)) === undefined ? body : undefined;
  }

  /** `row` with everything that decides who sees it taken from signed events, or undefined. */
  async row(row: FeedRow): Promise<FeedWindowRow | undefined> {
    const body = await this.body(row.event);
    if (body === undefined) return undefined;
    const { create, canceller, involving = [] } = row.evidence ?? {};
    const created = create?.seq === 0 ? await this.body(create) : undefined;
    const named = await this.body(canceller);
    const actorsBefore: string[] = [];
    const at = parseTimestamp(body.timestamp).epochNanos;
    for (const event of involving) {
      const earlier = event.seq < row.event.seq ? await this.body(event) : undefined;
      // Earlier in the chain as signed, not only as numbered (`seq` is a column too).
      if (earlier === undefined || parseTimestamp(earlier.timestamp).epochNanos > at) continue;
      if (INVOLVES.has(earlier.type)) actorsBefore.push(earlier.actor);
    }
    return {
      position: row.position,
      event: row.event,
      cancelled: named?.type === 'cancel' && cancelsOf(named) === body.id,
      // No signed create, no issuer: only the signed issuer sees a chain's events.
      issuer: created?.type === 'create' ? created.actor : '',
      actor: body.actor,
      type: body.type,
      actorsBefore,
    };
  }

  /** The rows of `rows` that pass, as signed. */
  async rows(rows: readonly FeedRow[]): Promise<FeedWindowRow[]> {
    const checked: FeedWindowRow[] = [];
    for (const row of rows) {
      const signed = await this.row(row);
      if (signed !== undefined) checked.push(signed);
    }
    return checked;
  }
}

/**
 * `feed` with every row checked against its signed event, and who sees it decided from signed
 * events (see the file comment). A read answers up to `limit` rows that pass: when rows fail, it
 * reads on after them, so that a short page still means that nothing more is there.
 */
export function checkedFeed(feed: FeedReads, verifier: EventVerifier): FeedReads {
  return {
    async read(viewer: FeedViewer, after: number, upTo: number, limit: number) {
      const served: FeedRow[] = [];
      let from = after;
      for (;;) {
        const want = limit - served.length;
        const rows = await feed.read(viewer, from, upTo, want);
        const checked = await new ReadCheck(verifier).rows(rows);
        served.push(...checked.filter((row) => seesFeedRow(viewer, row)));
        const last = rows[rows.length - 1];
        if (rows.length < want || served.length >= limit || last === undefined) return served;
        from = last.position;
      }
    },
    async readWindow(after: number, upTo: number, limit: number) {
      return new ReadCheck(verifier).rows(await feed.readWindow(after, upTo, limit));
    },
  };
}
