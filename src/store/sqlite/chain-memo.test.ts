/**
 * The chain memo's admission: a chain is remembered on its second read, so chains read once (a
 * scan) neither push out the chains served again and again nor take the memo's memory.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { ChainState } from '../types.js';
import { ChainMemo } from './chain-memo.js';
import { DEFAULT_MEMORY_BOUNDS } from '../../config/memory-bounds.js';

const VERSION = 7;

function chain(id: string): ChainState {
  return {
    prescription: {
      id,
      issuer: 'Dr. A (gln:1)',
      issuerActor: 'doctor-1',
      issuedAt: 1_700_000_000,
      medicaments: [],
      headHash: `head-${id}`,
    },
    events: [
      {
        prescriptionId: id,
        seq: 0,
        id: `event-${id}`,
        parentHash: null,
        body: 'b'.repeat(1_000),
        hash: `hash-${id}`,
        signature: 's'.repeat(1_000),
      },
    ],
  };
}

/** A read through the memo, as the store makes it: remembered, or read anew and offered. */
function read(memo: ChainMemo, id: string): ChainState {
  return memo.get(id, VERSION) ?? memo.remember(id, chain(id));
}

describe('chain memo: admission on the second read', () => {
  it('remembers a chain from its second read on, frozen', () => {
    const memo = new ChainMemo(DEFAULT_MEMORY_BOUNDS.chainChars, DEFAULT_MEMORY_BOUNDS.readOnce);
    const first = read(memo, 'a');
    assert.ok(Object.isFrozen(first));
    assert.equal(memo.get('a', VERSION), undefined, 'read once: not remembered');
    const second = read(memo, 'a');
    assert.notEqual(second, first);
    assert.equal(memo.get('a', VERSION), second);
    assert.equal(read(memo, 'a'), second);
  });

  it('keeps the chains read again while many others are read once', () => {
    // Room for about ten such chains.
    const memo = new ChainMemo(25_000, 64);
    const hot = ['h1', 'h2', 'h3'];
    for (const id of hot) read(memo, id);
    const remembered = hot.map((id) => read(memo, id));
    for (let i = 0; i < 1_000; i++) read(memo, `scan-${i}`);
    hot.forEach((id, i) => assert.equal(memo.get(id, VERSION), remembered[i]));
    for (let i = 0; i < 1_000; i++) assert.equal(memo.get(`scan-${i}`, VERSION), undefined);
  });

  it('counts a read as a second one only while the first is among the last reads once', () => {
    const memo = new ChainMemo(25_000, 4);
    read(memo, 'a');
    for (let i = 0; i < 4; i++) read(memo, `other-${i}`);
    read(memo, 'a');
    assert.equal(memo.get('a', VERSION), undefined, 'its first read was forgotten');
    read(memo, 'a');
    assert.ok(memo.get('a', VERSION) !== undefined);
  });

  it('keeps a remembered chain remembered with the event its own append committed', () => {
    const memo = new ChainMemo(DEFAULT_MEMORY_BOUNDS.chainChars, DEFAULT_MEMORY_BOUNDS.readOnce);
    read(memo, 'a');
    const state = read(memo, 'a');
    const base = chain('a').events[0]!;
    const event = { ...base, seq: 1, id: 'event-2', parentHash: base.hash, hash: 'hash-2' };
    memo.rememberAppended({ state, readAt: VERSION }, event, () => VERSION);
    const after = memo.get('a', VERSION);
    assert.equal(after?.events.length, 2);
    assert.equal(after?.prescription.headHash, 'hash-2');
    assert.ok(Object.isFrozen(after));
  });
});
