/**
 * `erx audit verify`'s comparison of the transparency log with the live events
 * (docs/transparency.md, "Which check sees which attack"). Two checks, each reading in pages:
 *
 * - along each prescription's chain ({@link chainFindings}): every leaf of its name must be the
 *   chain's event at the leaf's place, still at the feed position the log read it at, and signed;
 * - along the log ({@link LeafAudit}): the leaves kept must hash to the root the newest checkpoint
 *   signs, and each must name a live event that holds it, at the position the log read it at,
 *   which no other event holds now.
 *
 * So a chain truncated in the database is reported even when nothing was appended to it again (the
 * log's signed leaves hold events the chain no longer has), and a ghost row under a prescription
 * that does not exist holds no leaf. Memory stays bounded: a page of leaves and the tree's right
 * edge, beside the findings themselves.
 */
import type { EventRow } from '../../store/rows.js';
import type {
  ChainLeafRow,
  LeafEvent,
  LeafRow,
  LogCheckpointRow,
  LogStore,
} from '../../store/log.js';
import {
  RightEdge,
  ed25519NoteVerifier,
  hashesEqual,
  leafHash,
  openNote,
  parseCheckpoint,
} from '../../tlog/index.js';
import { chainName, leafEntry } from '../../transparency/leaf-entry.js';

/**
 * What is wrong with a leaf, or with the log:
 * - `other_hash`: the event at the leaf's place (or with its id) has another hash;
 * - `missing`: no live event holds it (the chain ends before its place, or the row is gone);
 * - `ghost`: it is held by a row of a prescription that does not exist;
 * - `moved`: its event is no longer at the feed position the log read it at;
 * - `reused`: another event holds the feed position the log read it at;
 * - `unsigned`: its event's signature does not verify;
 * - `checkpoint`: the newest checkpoint's signature does not verify under the log key;
 * - `root`: the leaves kept are not those of the signed tree (from `leaf` on, if one is missing).
 */
export type LogFindingKind =
  'other_hash' | 'missing' | 'ghost' | 'moved' | 'reused' | 'unsigned' | 'checkpoint' | 'root';

/** One thing the log and the live events disagree on. */
export interface LogFinding {
  readonly kind: LogFindingKind;
  /** The leaf's index; undefined for the checkpoint. */
  readonly leaf: number | undefined;
  /** The chain's one-way name (hex) the leaf commits to; undefined for a legacy leaf. */
  readonly chain: string | undefined;
  readonly place: number | undefined;
  /** The prescription whose row is concerned, when one is known. */
  readonly prescriptionId: string | undefined;
}

/** Leaves read per page along the log. */
const PAGE = 500;

/** A finding about `leaf`. */
function about(
  kind: LogFindingKind,
  leaf: LeafRow,
  prescriptionId: string | undefined,
): LogFinding {
  const chain = leaf.chain === null ? undefined : Buffer.from(leaf.chain).toString('hex');
  return { kind, leaf: leaf.index, chain, place: leaf.place, prescriptionId };
}

/**
 * What the leaves of prescription `prescriptionId`'s chain say against its `events`;
 * `unsignedAt`: the place of an event whose signature does not verify, if the chain check found one.
 */
export function chainFindings(
  prescriptionId: string,
  events: readonly Pick<EventRow, 'hash'>[],
  leaves: readonly ChainLeafRow[],
  unsignedAt: number | undefined,
): LogFinding[] {
  const found: LogFinding[] = [];
  for (const leaf of leaves) {
    const event = events[leaf.place];
    const kind: LogFindingKind | undefined =
      event === undefined
        ? 'missing'
        : event.hash !== leaf.hash
          ? 'other_hash'
          : leaf.feedSeqNow !== leaf.feedSeq
            ? 'moved'
            : leaf.place === unsignedAt
              ? 'unsigned'
              : undefined;
    if (kind !== undefined) found.push(about(kind, leaf, prescriptionId));
  }
  return found;
}

/** What one leaf says against the events its id and its feed position name. */
function leafFindings(
  leaf: LeafRow,
  byId: ReadonlyMap<string, LeafEvent>,
  byPosition: ReadonlyMap<number, LeafEvent>,
): LogFinding[] {
  const found: LogFinding[] = [];
  const event = byId.get(leaf.eventId);
  if (event === undefined) found.push(about('missing', leaf, undefined));
  else if (!event.live) found.push(about('ghost', leaf, event.prescriptionId));
  else if (
    event.hash !== leaf.hash ||
    (leaf.chain !== null &&
      (event.seq !== leaf.place || !hashesEqual(chainName(event.prescriptionId), leaf.chain)))
  ) {
    found.push(about('other_hash', leaf, event.prescriptionId));
  } else if (event.feedSeq !== leaf.feedSeq) found.push(about('moved', leaf, event.prescriptionId));
  const holder = byPosition.get(leaf.feedSeq);
  if (holder !== undefined && holder.id !== leaf.eventId) {
    found.push(about(holder.live ? 'reused' : 'ghost', leaf, holder.prescriptionId));
  }
  return found;
}

/** The root `head`'s note signs under `verifierKey`; undefined if it does not verify. */
function signedRoot(head: LogCheckpointRow, verifierKey: string): Uint8Array | undefined {
  try {
    const checkpoint = parseCheckpoint(
      openNote(head.note, [ed25519NoteVerifier(verifierKey)]).text,
    );
    return checkpoint.size === head.size ? checkpoint.root : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The audit along the log of the tree of `head`: {@link run} reads every leaf in pages and
 * reports what is wrong, leaving out what the chains' audit reported already.
 */
export class LeafAudit {
  readonly #log: LogStore;
  readonly #head: LogCheckpointRow;
  readonly #verifierKey: string | undefined;

  /** `verifierKey`: the log's; without it, the stored root stands for the signed one. */
  constructor(log: LogStore, head: LogCheckpointRow, verifierKey: string | undefined) {
    this.#log = log;
    this.#head = head;
    this.#verifierKey = verifierKey;
  }

  /** The findings along the log; `known`: those reported already ({@link findingKey}). */
  async run(known: ReadonlySet<string>): Promise<LogFinding[]> {
    const head = this.#head;
    const found: LogFinding[] = [];
    const root = this.#verifierKey === undefined ? head.root : signedRoot(head, this.#verifierKey);
    if (root === undefined) found.push(ofLog('checkpoint', undefined));
    const edge = RightEdge.of(0, []);
    for (let from = 0; from < head.size;) {
      const want = Math.min(PAGE, head.size - from);
      // The leaves in order up to the first the store lacks.
      const page = (await this.#log.readLeafRows(from, want)).filter(
        (l, k) => l.index === from + k,
      );
      for (const leaf of page) edge.append(leafHash(leafEntry(leaf)));
      const events = await this.#log.leafEvents(
        page.map((l) => l.eventId),
        page.map((l) => l.feedSeq),
      );
      const byId = new Map(events.map((e) => [e.id, e]));
      const byPosition = new Map(
        events.flatMap((e) => (e.feedSeq === undefined ? [] : [[e.feedSeq, e] as const])),
      );
      for (const leaf of page) {
        for (const f of leafFindings(leaf, byId, byPosition)) {
          if (!known.has(findingKey(f))) found.push(f);
        }
      }
      from += page.length;
      // A leaf of the tree is not kept: the leaves are not those of the signed tree.
      if (page.length < want) return [...found, ofLog('root', from)];
    }
    if (root !== undefined && !hashesEqual(edge.root(), root)) found.push(ofLog('root', undefined));
    return found;
  }
}

/** A finding about the log as a whole, from leaf `leaf` on if known. */
function ofLog(kind: 'checkpoint' | 'root', leaf: number | undefined): LogFinding {
  return { kind, leaf, chain: undefined, place: undefined, prescriptionId: undefined };
}

/** What tells two findings apart: their kind and leaf. */
export function findingKey(f: LogFinding): string {
  return `${f.kind} ${f.leaf ?? ''}`;
}
