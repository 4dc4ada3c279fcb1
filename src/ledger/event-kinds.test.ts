/**
 * The kinds table walked row by row: each kind's properties agree with one another, with SPEC.md
 * §5 and §7, and with docs/decisions.md "Who sees which events", and the feed's SQL list is the
 * table's.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { INVOLVING, SEEN_FROM_OTHERS } from '../store/feed-rows.js';
import { EVENT_TYPES } from './event.js';
import type { EventType } from './event.js';
import { EVENT_KINDS } from './event-kinds.js';
import type { FoldEffect } from './event-kinds.js';

const DISPENSE_FOLDS: readonly FoldEffect[] = ['dispense_items', 'dispense_rest'];
const isDispense = (type: EventType): boolean => DISPENSE_FOLDS.includes(EVENT_KINDS[type].fold);

/** The kinds "Who sees which events" names as seen from others, read from the record itself. */
function seenFromOthersInDecisions(): ReadonlySet<EventType> {
  const text = readFileSync(new URL('../../docs/decisions.md', import.meta.url), 'utf8');
  const section = text.split('\n## ').find((s) => s.startsWith('Who sees which events'));
  assert.ok(section, 'docs/decisions.md has a record "Who sees which events"');
  const listed = /its own events\s+and the ([a-z, ]+?) events of others/.exec(
    section.replace(/\s+/g, ' '),
  );
  assert.ok(listed?.[1], 'the record lists the kinds a pharmacist sees from others');
  const words = listed[1].split(/, | and /);
  return new Set(
    words.flatMap((word) =>
      word === 'dispense' ? EVENT_TYPES.filter(isDispense) : [word as EventType],
    ),
  );
}

describe('the event kinds table', () => {
  it('has one row per event type and no other', () => {
    assert.deepEqual(Object.keys(EVENT_KINDS).sort(), [...EVENT_TYPES].sort());
  });

  it('lets exactly one kind start a chain: the create, made by a prescriber and never undone', () => {
    const starters = EVENT_TYPES.filter((type) => EVENT_KINDS[type].startsChain);
    assert.deepEqual(starters, ['create']);
    assert.deepEqual(EVENT_KINDS.create.makers, ['prescriber']);
    assert.equal(EVENT_KINDS.create.fold, 'none');
    assert.equal(EVENT_KINDS.create.cancellable, false);
  });

  it('makes the cancellable kinds exactly the dispense kinds and the cancel (SPEC.md §5)', () => {
    for (const type of EVENT_TYPES) {
      const kind = EVENT_KINDS[type];
      assert.equal(kind.cancellable, isDispense(type) || kind.fold === 'cancel', type);
    }
  });

  it('lets items and forced dispense data only on the dispense kinds, made by pharmacists', () => {
    for (const type of EVENT_TYPES) {
      const kind = EVENT_KINDS[type];
      assert.equal(kind.items, isDispense(type), type);
      assert.equal(kind.data === 'dispense', isDispense(type), type);
      if (isDispense(type)) assert.deepEqual(kind.makers, ['pharmacist'], type);
    }
  });

  it('gives `{EventId}` to the kind that folds as a cancel and to no other', () => {
    for (const type of EVENT_TYPES) {
      const kind = EVENT_KINDS[type];
      assert.equal(kind.data === 'cancel', kind.fold === 'cancel', type);
    }
  });

  it('names at least one maker for every kind', () => {
    for (const type of EVENT_TYPES) assert.ok(EVENT_KINDS[type].makers.length > 0, type);
  });

  it('shows others the kinds docs/decisions.md names, and the feed reads the same list', () => {
    const documented = seenFromOthersInDecisions();
    const seen = EVENT_TYPES.filter((type) => EVENT_KINDS[type].seenByOthers);
    assert.deepEqual(new Set(seen), documented);
    assert.deepEqual([...SEEN_FROM_OTHERS].sort(), [...seen].sort());
  });

  it('involves the actor of a dispense or a cancel and of no other kind (SPEC.md §10)', () => {
    for (const type of EVENT_TYPES) {
      const kind = EVENT_KINDS[type];
      assert.equal(kind.involves, isDispense(type) || kind.fold === 'cancel', type);
    }
    assert.deepEqual([...INVOLVING].sort(), ['cancel', 'full_dispense', 'partial_dispense']);
  });
});
