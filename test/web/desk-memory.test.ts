/**
 * The desk's memory of what it issued (web/src/desk/issued-memory.ts), without a browser: one
 * store per prescriber, newest first, at most 200 records and 90 days, the link dropped on
 * request, a record forgotten, and unreadable or refusing storage taken as empty.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  IssuedMemory,
  MEMORY_DAYS,
  MEMORY_LIMIT,
  initialsOf,
} from '../../web/src/desk/issued-memory.js';
import type { KeptStorage, Remembered } from '../../web/src/desk/issued-memory.js';

/** A storage over a Map; `refuse` makes every write throw, as a full or private storage does. */
class MapStorage implements KeptStorage {
  readonly items = new Map<string, string>();
  refuse = false;
  get length(): number {
    return this.items.size;
  }
  getItem(key: string): string | null {
    return this.items.get(key) ?? null;
  }
  removeItem(key: string): void {
    this.items.delete(key);
  }
  setItem(key: string, value: string): void {
    if (this.refuse) throw new Error('QuotaExceededError');
    this.items.set(key, value);
  }
}

const NOW = new Date('2026-11-27T10:00:00Z');

function record(id: string, daysAgo: number, link?: string): Remembered {
  const at = new Date(NOW.getTime() - daysAgo * 86_400_000).toISOString();
  return {
    id,
    at,
    initials: 'A. M.',
    meds: [{ id: '7680543201015', idType: 2 }],
    ...(link ? { link } : {}),
  };
}

describe('the desk’s memory of what it issued', () => {
  test('initials only, never the name', () => {
    assert.equal(initialsOf('anna', 'Muster'), 'A. M.');
    assert.equal(initialsOf(' Élise ', ''), 'É.');
    assert.equal(initialsOf(undefined, undefined), '');
  });

  test('per prescriber, newest first, bounded in number and age', () => {
    const storage = new MapStorage();
    const mine = new IssuedMemory('doctor', storage);
    const theirs = new IssuedMemory('doctor2', storage);
    mine.remember(record('old', MEMORY_DAYS + 1), NOW);
    mine.remember(record('a', 2), NOW);
    mine.remember(record('b', 1, 'https://rx/#b'), NOW);
    assert.deepEqual(
      mine.all(NOW).map((r) => r.id),
      ['b', 'a'],
    );
    assert.deepEqual(theirs.all(NOW), []);
    for (let i = 0; i < MEMORY_LIMIT + 5; i += 1) mine.remember(record(`n${i}`, 0), NOW);
    assert.equal(mine.all(NOW).length, MEMORY_LIMIT);
  });

  test('a link is dropped, a record forgotten; unreadable storage is empty', () => {
    const storage = new MapStorage();
    const memory = new IssuedMemory('doctor', storage);
    memory.remember(record('a', 1, 'https://rx/#a'), NOW);
    memory.remember(record('b', 0, 'https://rx/#b'), NOW);
    memory.dropLink('a', NOW);
    assert.deepEqual(
      memory.all(NOW).map((r) => [r.id, r.link]),
      [
        ['b', 'https://rx/#b'],
        ['a', undefined],
      ],
    );
    memory.forget('b', NOW);
    assert.deepEqual(
      memory.all(NOW).map((r) => r.id),
      ['a'],
    );
    memory.forget('a', NOW);
    assert.equal(storage.length, 0, 'nothing left behind');
    storage.setItem('erx.desk.issued.doctor', '{not json');
    assert.deepEqual(memory.all(NOW), []);
    storage.refuse = true;
    memory.remember(record('c', 0), NOW);
    assert.deepEqual(memory.all(NOW), []);
  });
});
