/**
 * The cancel fold (SPEC.md §5): a cancel stands unless a standing cancel names it; an event is
 * cancelled while a standing cancel names it; and what each new event undid or restored.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EventType } from '../../ledger/event.js';
import { CancelFold, cancelledIn } from './cancel-chains.js';
import type { CancelFacts } from './cancel-chains.js';

const event = (id: string, type: EventType = 'partial_dispense'): CancelFacts => ({
  id,
  type,
  event_data: {},
});
const cancel = (id: string, target: string): CancelFacts => ({
  id,
  type: 'cancel',
  event_data: { EventId: target },
});

describe('the cancel fold', () => {
  it('undoes the event a cancel names, and restores it when that cancel is cancelled', () => {
    const fold = new CancelFold();
    assert.deepEqual(fold.add(event('d')), []);
    assert.deepEqual(fold.add(cancel('c1', 'd')), ['d']);
    assert.deepEqual([...fold.cancelled], ['d']);
    assert.deepEqual(fold.add(cancel('c2', 'c1')), ['c1', 'd']);
    assert.deepEqual([...fold.cancelled], ['c1']);
    assert.deepEqual(fold.add(cancel('c3', 'c2')), ['c2', 'c1', 'd']);
    assert.deepEqual([...fold.cancelled].sort(), ['c2', 'd']);
    assert.deepEqual([...fold.named].sort(), ['c1', 'c2', 'd']);
  });

  it('keeps an event undone while another standing cancel still names it', () => {
    const { cancelled } = cancelledIn([
      event('d'),
      cancel('c1', 'd'),
      cancel('c2', 'd'),
      cancel('c3', 'c1'),
    ]);
    assert.deepEqual([...cancelled].sort(), ['c1', 'd']);
  });

  it('ignores a cancel naming an event that is not before it, or naming nothing', () => {
    const { cancelled, named } = cancelledIn([
      cancel('c1', 'c1'),
      cancel('c2', 'later'),
      event('later'),
      { id: 'c3', type: 'cancel', event_data: {} },
    ]);
    assert.deepEqual([...cancelled], []);
    assert.deepEqual([...named], []);
  });

  it('reads the cancel from the kinds table, not from the field alone', () => {
    const { cancelled } = cancelledIn([
      event('d'),
      { id: 'l', type: 'lock', event_data: { EventId: 'd' } },
    ]);
    assert.deepEqual([...cancelled], []);
  });
});
