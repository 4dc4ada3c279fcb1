/**
 * Test support: what someone holding a leaf private key can make without erx — an event that
 * follows a head in the ledger's exact form, dated at a time of their choosing (before the head
 * too, which erx itself never does) and signed by that leaf.
 */
import { randomUUID } from 'node:crypto';
import { canonicalJson } from '../../../src/ledger/canonical-json.js';
import type { EventBody, EventType, SignedEvent } from '../../../src/ledger/event.js';
import { sha256Hex } from '../../../src/ledger/hash.js';
import { signEventHash } from '../../../src/ledger/sign-event-hash.js';
import type { SigningKey } from '../../../src/pki/index.js';

export interface DatedEvent {
  /** The prescription id. */
  readonly reference: string;
  readonly timestamp: string;
  readonly type?: EventType;
  readonly actor?: string;
  readonly actorName?: string;
}

/** The event `what` after `head`, signed by `key` whatever its date (default: a full dispense). */
export async function eventSignedWith(
  head: Pick<SignedEvent, 'hash' | 'seq'>,
  what: DatedEvent,
  key: SigningKey,
): Promise<SignedEvent> {
  const body: EventBody = {
    id: randomUUID(),
    type: what.type ?? 'full_dispense',
    reference: what.reference,
    event_data: {},
    timestamp: what.timestamp,
    actor: what.actor ?? 'HIN|apotheke.zuerich',
    actor_name: what.actorName ?? 'Apotheke am Zürichsee',
    parent_hash: head.hash,
  };
  const text = canonicalJson(body);
  const hash = sha256Hex(text);
  return {
    id: body.id,
    type: body.type,
    seq: head.seq + 1,
    parentHash: head.hash,
    body: text,
    hash,
    signature: await signEventHash(hash, key),
  };
}
