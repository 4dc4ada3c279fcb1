/**
 * Building the next event of a chain (SPEC.md §7): fill in id and time, link it to the head,
 * canonicalise, hash and sign. Pure apart from signing; storing it is the caller's business.
 */
import { v7 as timeOrderedUuid } from 'uuid';
import { ErxError } from '../errors.js';
import type { Signer } from '../pki/index.js';
import { canonicalJson } from './canonical-json.js';
import type { DispenseEntry, EventBody, EventData, EventType, SignedEvent } from './event.js';
import { sha256Hex } from './hash.js';
import { signEventHash } from './sign-event-hash.js';
import { parseEventShape } from './parse-event-body.js';
import type { Clock } from './clock.js';
import { formatTimestamp, parseTimestamp } from './timestamp.js';
import { validateEventBody } from './validate-event-body.js';

/** The last event of a chain, as far as appending needs it (a stored or signed event is one). */
export interface ChainHead {
  readonly hash: string;
  readonly seq: number;
  /** Its canonical body: the next event is dated at or after its `timestamp`. */
  readonly body: string;
}

/** The fields of a new event that the caller decides. */
export interface NewEvent {
  type: EventType;
  /** The prescription id. */
  reference: string;
  actor: string;
  actor_name: string;
  event_data?: EventData;
  dispenses?: readonly DispenseEntry[];
  /** Create only. */
  prescription_hash?: string;
  /** Defaults to a new UUID version 7 ({@link newEventId}). */
  id?: string;
  /**
   * Defaults to the caller's clock now, or to the head's time while that clock is behind it
   * ({@link Clock.nanosNotBefore}); never before the head's time. The signing leaf is the one valid at this time.
   */
  timestamp?: string;
}

/** Drops absent optional fields, so `{reason: undefined}` means `{}` (SPEC.md §7). */
function defined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

/**
 * A new event id: a UUID version 7 (RFC 9562, the `uuid` package): 48 bits of time in
 * milliseconds, a counter that starts at a random value each millisecond, and random bits. Ids
 * made one after another in this process sort in that order, so each new event lands at the
 * right-hand end of the events' id index (SQLite and PostgreSQL alike) instead of on a random page
 * of it: fewer pages written per event on a large store (docs/performance.md). The time it
 * carries is that of the event's own `timestamp`, which the event shows anyway.
 */
export function newEventId(): string {
  return timeOrderedUuid();
}

/** The head's timestamp; a head whose body is not an event is the caller's error. */
function headTimestamp(head: ChainHead): string {
  const parsed = parseEventShape(head.body);
  if (!parsed.ok) throw new ErxError('internal_error', 'The head of the chain is not an event');
  return parsed.body.timestamp;
}

function buildBody(
  head: ChainHead | undefined,
  event: NewEvent,
  clock: Clock,
  previous?: string,
): EventBody {
  const body: EventBody = {
    id: event.id ?? newEventId(),
    type: event.type,
    reference: event.reference,
    event_data: defined(event.event_data ?? {}),
    timestamp: event.timestamp ?? formatTimestamp(clock.nanosNotBefore(previous)),
    actor: event.actor,
    actor_name: event.actor_name,
  };
  if (event.dispenses !== undefined) body.dispenses = event.dispenses.map(defined);
  if (head !== undefined) body.parent_hash = head.hash;
  if (event.prescription_hash !== undefined) body.prescription_hash = event.prescription_hash;
  return body;
}

/** An event just built and signed: what is stored, and the body it was made from. */
export interface BuiltEvent {
  readonly signed: SignedEvent;
  /** The body whose canonical JSON is `signed.body`: no need to parse it back. */
  readonly body: EventBody;
}

/**
 * Builds, hashes and signs the event that follows `head` (`undefined` for the create event),
 * dated by `clock` unless the event names its time.
 */
export async function buildEvent(
  head: ChainHead | undefined,
  event: NewEvent,
  signer: Signer,
  clock: Clock,
): Promise<BuiltEvent> {
  // A chain starts with exactly one create event (SPEC.md §7); the caller must know which it is.
  if ((head === undefined) !== (event.type === 'create')) {
    throw new ErxError('internal_error', 'Event does not fit the chain', {
      detail: { type: event.type, hasHead: head !== undefined },
    });
  }
  const previous = head === undefined ? undefined : headTimestamp(head);
  const validation = validateEventBody(buildBody(head, event, clock, previous));
  if (!validation.ok) {
    throw new ErxError('bad_request', 'Invalid event', { detail: validation.problem });
  }
  const body = validation.body;
  // Time never runs backwards along a chain: verification refuses such an event (`check-time.ts`).
  if (
    previous !== undefined &&
    parseTimestamp(body.timestamp).epochNanos < parseTimestamp(previous).epochNanos
  ) {
    throw new ErxError('internal_error', 'Event dated before its predecessor', {
      detail: { timestamp: body.timestamp, previous },
    });
  }
  const text = canonicalJson(body);
  const hash = sha256Hex(text);
  const key = await signer.keyAt(parseTimestamp(body.timestamp).date);
  const signed: SignedEvent = {
    id: body.id,
    type: body.type,
    seq: head === undefined ? 0 : head.seq + 1,
    parentHash: body.parent_hash ?? null,
    body: text,
    hash,
    signature: await signEventHash(hash, key),
  };
  return { signed, body };
}

/** {@link buildEvent} when only what is stored is needed. */
export async function appendEvent(
  head: ChainHead | undefined,
  event: NewEvent,
  signer: Signer,
  clock: Clock,
): Promise<SignedEvent> {
  return (await buildEvent(head, event, signer, clock)).signed;
}
