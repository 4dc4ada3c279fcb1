/**
 * The audit's comparison of one chain with the leaves of its name: each leaf is reported by what
 * the chain holds at its place (nothing, another hash, its event moved, its event unsigned), and a
 * chain that holds every leaf is reported for none.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChainLeafRow } from '../../store/log.js';
import { chainName } from '../../transparency/leaf-entry.js';
import { chainFindings } from './audit-log.js';

const ID = 'rx-1';
const hashOf = (place: number): string => `${place}`.repeat(64).slice(0, 64);
const events = [0, 1, 2].map((place) => ({ hash: hashOf(place) }));

/** The leaf of place `place`, logged from feed position `10 + place`, its event now at `now`. */
function leaf(
  place: number,
  hash = hashOf(place),
  now: number | undefined = 10 + place,
): ChainLeafRow {
  return {
    index: place,
    chain: chainName(ID),
    place,
    hash,
    prev: place === 0 ? undefined : place - 1,
    eventId: `event-${place}`,
    feedSeq: 10 + place,
    feedSeqNow: now,
  };
}

describe('chainFindings', () => {
  it('reports nothing for a chain that holds every leaf where the log read it', () => {
    assert.deepEqual(chainFindings(ID, events, [leaf(0), leaf(1), leaf(2)], undefined), []);
  });

  it('reports each leaf by what the chain holds at its place', () => {
    const found = chainFindings(
      ID,
      events.slice(0, 3),
      [leaf(0), leaf(1, 'f'.repeat(64)), leaf(2, hashOf(2), 99), leaf(3, hashOf(3), undefined)],
      undefined,
    );
    assert.deepEqual(
      found.map((f) => [f.kind, f.leaf, f.place, f.prescriptionId, f.chain]),
      [
        ['other_hash', 1, 1, ID, chainName(ID).toString('hex')],
        ['moved', 2, 2, ID, chainName(ID).toString('hex')],
        ['missing', 3, 3, ID, chainName(ID).toString('hex')],
      ],
    );
  });

  it('reports a logged event whose signature the chain check refused', () => {
    const found = chainFindings(ID, events, [leaf(0), leaf(1), leaf(2)], 1);
    assert.deepEqual(
      found.map((f) => [f.kind, f.leaf]),
      [['unsigned', 1]],
    );
  });
});
