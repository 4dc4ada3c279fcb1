/**
 * The bounds of a prescription's history on their own (docs/decisions.md "A prescription's
 * history is bounded"): the chain's total, the actor's window and its `Retry-After`, the revoke
 * exempt from both, and the walk of the list.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChainBounds } from '../../config/chain-bounds.js';
import { DEFAULT_CHAIN_BOUNDS } from '../../config/chain-bounds.js';
import { formatTimestamp } from '../../ledger/index.js';
import type { EventBody, EventType } from '../../ledger/index.js';
import { CHAIN_BOUND_CHECKS, actorWindow, chainTotal, checkGrowth } from './chain-bounds.js';
import type { GrowthAsk } from './chain-bounds.js';

const NOW = Date.parse('2030-01-01T12:00:00Z');
const MINUTE = 60_000;
const BOUNDS: ChainBounds = { maxEvents: 6, actorEvents: 3, actorWindowMs: 60 * MINUTE };

/** An event of `type` by `actor`, `ago` ms before {@link NOW}. */
function event(actor: string, type: EventType, ago: number): EventBody {
  return {
    type,
    actor,
    timestamp: formatTimestamp(BigInt(NOW - ago) * 1_000_000n),
  } as EventBody;
}

const ask = (actor: string, type: EventType = 'lock'): GrowthAsk => ({ type, actor, now: NOW });

/** A chain created two hours ago by the prescriber. */
const created = [event('HIN|doc', 'create', 120 * MINUTE)];

describe('the bounds of a chain', () => {
  it('lets a chain grow up to its total, then refuses with 409 chain_full', () => {
    const five = [...created, ...[4, 3, 2, 1].map((m) => event('HIN|p1', 'lock', m * 90 * MINUTE))];
    assert.equal(chainTotal(five, ask('HIN|p2'), BOUNDS), undefined);
    const six = [...five, event('HIN|p2', 'lock', MINUTE)];
    const refused = chainTotal(six, ask('HIN|p3'), BOUNDS)?.error;
    assert.equal(refused?.code, 'conflict');
    assert.equal(refused?.causeCode, 'chain_full');
    assert.equal(refused?.retryAfter, undefined);
    assert.deepEqual(refused?.params, { limit: 6 });
  });

  it('lets an actor append up to its number in the window, then refuses with 429', () => {
    const two = [...created, event('HIN|p1', 'lock', 30 * MINUTE), event('HIN|p1', 'unlock', 20)];
    assert.equal(actorWindow(two, ask('HIN|p1'), BOUNDS), undefined);
    const three = [...two, event('HIN|p1', 'lock', 10 * MINUTE)];
    const refused = actorWindow(three, ask('HIN|p1'), BOUNDS)?.error;
    assert.equal(refused?.code, 'too_many_requests');
    assert.equal(refused?.causeCode, 'too_many_events');
    // The oldest of the three leaves the window 30 minutes from now.
    assert.equal(refused?.retryAfter, 30 * 60);
    assert.deepEqual(refused?.params, { limit: 3, window_s: 3600 });
  });

  it('counts only the actor’s own events, and only those inside the window', () => {
    const chain = [
      ...created,
      event('HIN|p1', 'lock', 61 * MINUTE),
      event('HIN|p1', 'unlock', 60 * MINUTE),
      event('HIN|p2', 'lock', 5 * MINUTE),
      event('HIN|p2', 'unlock', 4 * MINUTE),
      event('HIN|p1', 'lock', MINUTE),
    ];
    assert.equal(actorWindow(chain, ask('HIN|p1'), BOUNDS), undefined);
    assert.equal(actorWindow(chain, ask('HIN|p2'), BOUNDS), undefined);
  });

  it('answers a Retry-After of at least one second', () => {
    const chain = [...created, ...[3, 2, 1].map((ms) => event('HIN|p1', 'lock', 60 * MINUTE - ms))];
    assert.equal(actorWindow(chain, ask('HIN|p1'), BOUNDS)?.error.retryAfter, 1);
  });

  it('never refuses a revoke: it is final and ends a full chain', () => {
    const full = [...created, ...[5, 4, 3, 2, 1].map((m) => event('HIN|doc', 'lock', m * MINUTE))];
    assert.equal(checkGrowth(full, ask('HIN|doc', 'revoke'), BOUNDS), undefined);
    assert.equal(checkGrowth(full, ask('HIN|doc', 'lock'), BOUNDS)?.causeCode, 'chain_full');
  });

  it('answers the lasting refusal first: a full chain is 409 even inside the window', () => {
    assert.deepEqual(
      CHAIN_BOUND_CHECKS.map(([name]) => name),
      ['chainTotal', 'actorWindow'],
    );
    const full = [...created, ...[5, 4, 3, 2, 1].map((m) => event('HIN|p1', 'lock', m * MINUTE))];
    assert.equal(checkGrowth(full, ask('HIN|p1'), BOUNDS)?.causeCode, 'chain_full');
  });

  it('leaves a prescription with 24 repeats room for a lock, two partials and an unlock per visit', () => {
    // 25 visits (the first and 24 repeats), each: lock, partial, partial, unlock; a cancel and a
    // redo at every fifth visit. Each visit on its own day, one pharmacy throughout.
    const chain = [...created];
    for (let visit = 0; visit < 25; visit++) {
      const day = (25 - visit) * 24 * 60 * MINUTE;
      const kinds: EventType[] = ['lock', 'partial_dispense', 'partial_dispense', 'unlock'];
      if (visit % 5 === 0) kinds.splice(3, 0, 'cancel', 'partial_dispense');
      for (const [i, type] of kinds.entries()) chain.push(event('HIN|p1', type, day - i * MINUTE));
    }
    const visit = ['lock', 'partial_dispense', 'cancel', 'partial_dispense', 'unlock'] as const;
    for (const type of visit) {
      assert.equal(checkGrowth(chain, ask('HIN|p1', type), DEFAULT_CHAIN_BOUNDS), undefined);
      chain.push(event('HIN|p1', type, 0));
    }
    assert.ok(chain.length * 3 < DEFAULT_CHAIN_BOUNDS.maxEvents, `${chain.length} events`);
  });
});
