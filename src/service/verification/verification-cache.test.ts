/** The verification cache: what it remembers is found again only under every key it depends on. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { DEFAULT_MEMORY_BOUNDS } from '../../config/memory-bounds.js';
import { VerificationMemory } from '../../memory/verification-memory.js';
import type { ChainState } from '../../store/types.js';
import type { LinkFacts } from './link-facts.js';
import { chainKey, VerificationCache } from './verification-cache.js';
import type { KnownLink, VerifyAnswers } from './verification-cache.js';
import type { VerifyFull, VerifyShort } from '../types.js';

function state(body = '{"a":1}'): ChainState {
  return {
    prescription: {
      id: 'p',
      issuer: 'Dr. A (HIN|a)',
      issuerActor: 'HIN|a',
      issuedAt: 1,
      medicaments: [{ Id: '7680543201015', IdType: 2 }],
      headHash: 'h',
    },
    events: [
      { prescriptionId: 'p', seq: 0, id: 'e', parentHash: null, body, hash: 'h', signature: 's' },
    ],
  };
}

/** Link `text` as the cache knows it under `generation` (facts made up: only identity matters). */
function link(cache: VerificationCache, text: string, generation = 1): KnownLink {
  return cache.linkFacts(text, generation, () => ({ id: text }) as unknown as LinkFacts);
}

/** A builder that counts its calls and answers a distinct pair each time, true until `until`. */
function counting(until = Infinity): { build: () => Promise<VerifyAnswers>; calls: () => number } {
  let calls = 0;
  return {
    build: async () => {
      calls++;
      const short = { prescription_id: `p${calls}` } as VerifyShort;
      return { short, full: () => ({ ...short, events: [] }) as unknown as VerifyFull, until };
    },
    calls: () => calls,
  };
}

const NOW = 1_700_000_000_000;

/** A cache over a memory of its own, with `answerBytes` of room for answers when given. */
function cacheOf(answerBytes?: number): VerificationCache {
  const bounds = { ...DEFAULT_MEMORY_BOUNDS, answerBytes: answerBytes ?? 16 * 1024 * 1024 };
  return new VerificationCache(new VerificationMemory(bounds));
}

/** `chain` with every object frozen, as the SQLite store hands out the chains it remembers. */
function frozen(chain: ChainState): ChainState {
  for (const event of chain.events) Object.freeze(event);
  Object.freeze(chain.events);
  Object.freeze(chain.prescription);
  return Object.freeze(chain);
}

describe('VerificationCache', () => {
  test('an answer is built again once the time it holds until has come', async () => {
    const cache = cacheOf();
    const b = counting(NOW + 1_000);
    const read = state();
    const ask = (now: number) => cache.answer(link(cache, 'link'), read, false, now, b.build);
    await ask(NOW);
    await ask(NOW + 999);
    assert.equal(b.calls(), 1);
    assert.equal((await ask(NOW + 1_000)).answer.prescription_id, 'p2');
    assert.equal(b.calls(), 2);
  });

  test('an answer is built once per link, key-ring generation and chain rows', async () => {
    const cache = cacheOf();
    const b = counting();
    const ask = (text: string, generation: number, read: ChainState, full = false) =>
      cache.answer(link(cache, text, generation), read, full, NOW, b.build);
    const first = await ask('link', 1, state());
    assert.equal((await ask('link', 1, state(), true)).answer.prescription_id, 'p1');
    assert.equal((await ask('link', 1, state())).answer, first.answer);
    assert.equal(b.calls(), 1);
    await ask('link', 2, state());
    await ask('other link', 1, state());
    await ask('link', 2, state('{"a":2}'));
    assert.equal(b.calls(), 4);
  });

  test('the same rows read as another object, frozen or not, find the same answer', async () => {
    const cache = cacheOf();
    const b = counting();
    const ask = (read: ChainState) => cache.answer(link(cache, 'link'), read, false, NOW, b.build);
    const first = await ask(frozen(state()));
    assert.equal((await ask(state())).answer, first.answer);
    assert.equal((await ask(frozen(state()))).answer, first.answer);
    assert.equal(b.calls(), 1);
  });

  test('link facts are read once per text and generation, and named by both', () => {
    const memory = new VerificationMemory();
    const cache = new VerificationCache(memory);
    let reads = 0;
    const read = () => {
      reads++;
      return { id: 'x' } as unknown as LinkFacts;
    };
    const first = cache.linkFacts('a', 1, read);
    assert.equal(cache.linkFacts('a', 1, read), first);
    assert.notEqual(cache.linkFacts('a', 2, read).name, first.name);
    assert.notEqual(cache.linkFacts('b', 2, read).name, first.name);
    assert.equal(reads, 3);
    memory.links.clear();
    assert.equal(cache.linkFacts('a', 1, read).name, first.name, 'read again: the same name');
  });

  test('the key is the id, the head and the rows: one changed byte is another chain', () => {
    const same = chainKey(state());
    assert.equal(chainKey(state()), same);
    assert.ok(same.startsWith('p\u0000h\u0000'), 'the prescription id and head hash lead');
    assert.notEqual(chainKey(state('{"a":2}')), same);
    const signed = state();
    signed.events[0]!.signature = 't';
    assert.notEqual(chainKey(signed), same);
    const nulled = state();
    nulled.events[0]!.parentHash = 'null';
    assert.notEqual(chainKey(nulled), same, 'NULL is not "null"');
    const moved = state();
    moved.prescription.headHash = 'g';
    assert.notEqual(chainKey(moved), same);
  });

  test('the digest of a frozen chain is kept with it; a chain that may change is hashed anew', () => {
    const digests = new WeakMap<object, string>();
    const still = frozen(state());
    assert.equal(chainKey(still, digests), chainKey(state()));
    assert.ok(digests.has(still));
    const open = state();
    chainKey(open, digests);
    assert.equal(digests.has(open), false);
    open.events[0]!.body = '{"a":2}';
    assert.equal(chainKey(open, digests), chainKey(state('{"a":2}')));
  });

  test('two caches over one memory share what it remembers', async () => {
    const memory = new VerificationMemory();
    const b = counting();
    for (const cache of [new VerificationCache(memory), new VerificationCache(memory)]) {
      await cache.answer(link(cache, 'link'), state(), false, NOW, b.build);
    }
    assert.equal(b.calls(), 1);
    assert.equal(memory.answers.size, 1);
  });

  test("each variant's bytes are encoded once and kept with the answer", async () => {
    const cache = cacheOf();
    const b = counting();
    let encodings = 0;
    const encode = (answer: object): string => {
      encodings++;
      return JSON.stringify(answer);
    };
    for (let i = 0; i < 3; i++) {
      for (const full of [false, true]) {
        const outcome = await cache.answer(link(cache, 'link'), state(), full, NOW, b.build);
        assert.equal(outcome.bytes(encode).toString(), JSON.stringify(outcome.answer));
      }
    }
    assert.equal(encodings, 2);
  });

  test("a remembered answer's bytes own their buffer, not a shared 8 KiB slab", async () => {
    const cache = cacheOf();
    for (const full of [false, true]) {
      const outcome = await cache.answer(link(cache, 'link'), state(), full, NOW, counting().build);
      const bytes = outcome.bytes((answer) => JSON.stringify(answer));
      assert.ok(bytes.length < 100, 'a short answer, which Buffer.from would put in a slab');
      assert.equal(bytes.buffer.byteLength, bytes.length);
    }
  });

  test('answers are bounded by weight, the least recently used going first', async () => {
    const cache = cacheOf(4_500);
    const b = counting();
    for (const body of ['"a"', '"b"', '"c"', '"d"', '"a"']) {
      await cache.answer(link(cache, 'link'), state(body), false, NOW, b.build);
    }
    assert.ok(cache.size.answers <= 2, `${cache.size.answers} answers kept`);
    assert.equal(b.calls(), 5, 'the first answer had been dropped and was built again');
  });
});
