import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { EventVerifier } from '../../ledger/index.js';
import type { EventBody, SignedEvent } from '../../ledger/index.js';
import { VerificationMemory } from '../../memory/verification-memory.js';
import type { FeedEvent, FeedRow, FeedViewer } from '../../store/types.js';
import { makeChain, memoryPki } from '../../../test/support/ledger/chain.js';
import { checkedFeed } from './checked-feed.js';
import type { FeedReads } from './checked-feed.js';

/** A stored event of the chain with the copies of its body, as the store numbers it. */
function stored(event: SignedEvent): FeedEvent {
  const body = JSON.parse(event.body) as EventBody;
  return {
    ...event,
    prescriptionId: body.reference,
    actor: body.actor,
    cancels: body.type === 'cancel' ? (body.event_data.EventId ?? null) : null,
  };
}

describe('the checked feed', () => {
  let chain: SignedEvent[];
  let verifier: EventVerifier;
  let issuer: FeedViewer;

  before(async () => {
    const pki = await memoryPki();
    chain = await makeChain(pki.signer, { length: 10 });
    verifier = new EventVerifier(pki.trustStore, new VerificationMemory());
    issuer = { role: 'prescriber', sub: (JSON.parse(chain[0]!.body) as EventBody).actor };
  });

  /**
   * A store whose feed is the chain at positions 1 to 10, every row selected for every reader,
   * with `edit` applied to the stored rows; logs the ranges read.
   */
  function storeOf(edit: (row: FeedRow) => FeedRow = (row) => row) {
    const reads: string[] = [];
    const rows = chain.map((event, i) =>
      edit({
        position: i + 1,
        event: stored(event),
        cancelled: false,
        evidence: { create: stored(chain[0]!), involving: [] },
      }),
    );
    const feed: FeedReads = {
      read: async (_viewer, after, upTo, limit) => {
        reads.push(`${after}..${upTo} ${limit}`);
        return rows.filter((r) => r.position > after && r.position <= upTo).slice(0, limit);
      },
      readWindow: async (after, upTo, limit) =>
        rows
          .filter((r) => r.position > after && r.position <= upTo)
          .slice(0, limit)
          .map((r) => ({ ...r, issuer: issuer.sub, actor: null, type: null, actorsBefore: [] })),
    };
    return { feed, reads };
  }

  const positions = (rows: readonly FeedRow[]): number[] => rows.map((r) => r.position);

  it('serves untouched rows as they are, with the issuer from the signed create event', async () => {
    const { feed } = storeOf();
    const checked = checkedFeed(feed, verifier);
    const all = await checked.read(issuer, 0, 10, 100);
    assert.deepEqual(positions(all), [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    const other: FeedViewer = { role: 'prescriber', sub: 'HIN|someone-else' };
    assert.deepEqual(await checked.read(other, 0, 10, 100), []);
  });

  it('leaves out a forged signature or an edited copy, and fills the page after them', async () => {
    const { feed, reads } = storeOf((row) => {
      if (row.position === 2) return { ...row, event: { ...row.event, signature: 'forged' } };
      if (row.position === 3) return { ...row, event: { ...row.event, actor: issuer.sub } };
      return row;
    });
    const checked = checkedFeed(feed, verifier);
    assert.deepEqual(positions(await checked.read(issuer, 0, 10, 4)), [1, 4, 5, 6]);
    // The first read answered two rows that fail; the second read the two that were missing.
    assert.deepEqual(reads, ['0..10 4', '4..10 2']);
    assert.deepEqual(positions(await checked.readWindow(0, 10, 100)), [1, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('shows no one a chain whose create event fails', async () => {
    // The create row's signature replaced: it is the first row and beside every other.
    const create = { ...stored(chain[0]!), signature: chain[1]!.signature };
    const { feed } = storeOf((row) => ({
      ...row,
      event: row.position === 1 ? create : row.event,
      evidence: { create, involving: [] },
    }));
    const checked = checkedFeed(feed, verifier);
    assert.deepEqual(await checked.read(issuer, 0, 10, 100), []);
  });
});
