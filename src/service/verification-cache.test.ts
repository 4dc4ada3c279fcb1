/** The verification cache: what it remembers is found again only under every key it depends on. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChainRead, ChainState } from '../store/types.js';
import type { LinkFacts } from './link-facts.js';
import { chainKey, VerificationCache } from './verification-cache.js';
import type { KnownLink, VerifyAnswers } from './verification-cache.js';
import type { VerifyFull, VerifyShort } from './types.js';

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

describe('VerificationCache', () => {
  test('an answer is built again once the time it holds until has come', async () => {
    const cache = new VerificationCache();
    const b = counting(NOW + 1_000);
    const read: ChainRead = { state: state(), snapshot: 'one' };
    const ask = (now: number) => cache.answer(link(cache, 'link'), read, false, now, b.build);
    await ask(NOW);
    await ask(NOW + 999);
    assert.equal(b.calls(), 1);
    assert.equal((await ask(NOW + 1_000)).answer.prescription_id, 'p2');
    assert.equal(b.calls(), 2);
  });

  test('an answer is built once per link, key-ring generation and chain as read', async () => {
    const cache = new VerificationCache();
    const b = counting();
    const named: ChainRead = { state: state(), snapshot: 'one' };
    const ask = (text: string, generation: number, read: ChainRead, full = false) =>
      cache.answer(link(cache, text, generation), read, full, NOW, b.build);
    const first = await ask('link', 1, named);
    assert.equal((await ask('link', 1, named, true)).answer.prescription_id, 'p1');
    assert.equal((await ask('link', 1, named)).answer, first.answer);
    assert.equal(b.calls(), 1);
    await ask('link', 2, named);
    await ask('other link', 1, named);
    await ask('link', 2, { ...named, snapshot: 'two' });
    assert.equal(b.calls(), 4);
  });

  test('link facts are read once per text and generation', () => {
    const cache = new VerificationCache();
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
  });

  test('without a snapshot name, the rows are the key: one changed byte is another chain', () => {
    const same = chainKey({ state: state(), snapshot: undefined });
    assert.equal(chainKey({ state: state(), snapshot: undefined }), same);
    assert.notEqual(chainKey({ state: state('{"a":2}'), snapshot: undefined }), same);
    const signed = state();
    signed.events[0]!.signature = 't';
    assert.notEqual(chainKey({ state: signed, snapshot: undefined }), same);
    const nulled = state();
    nulled.events[0]!.parentHash = 'null';
    assert.notEqual(chainKey({ state: nulled, snapshot: undefined }), same, 'NULL is not "null"');
    const moved = state();
    moved.prescription.headHash = 'g';
    assert.notEqual(chainKey({ state: moved, snapshot: undefined }), same);
  });

  test("each variant's bytes are encoded once and kept with the answer", async () => {
    const cache = new VerificationCache();
    const b = counting();
    const read: ChainRead = { state: state(), snapshot: 'one' };
    let encodings = 0;
    const encode = (answer: object): string => {
      encodings++;
      return JSON.stringify(answer);
    };
    for (let i = 0; i < 3; i++) {
      for (const full of [false, true]) {
        const outcome = await cache.answer(link(cache, 'link'), read, full, NOW, b.build);
        assert.equal(outcome.bytes(encode).toString(), JSON.stringify(outcome.answer));
      }
    }
    assert.equal(encodings, 2);
  });

  test("a remembered answer's bytes own their buffer, not a shared 8 KiB slab", async () => {
    const cache = new VerificationCache();
    const read: ChainRead = { state: state(), snapshot: 'one' };
    for (const full of [false, true]) {
      const outcome = await cache.answer(link(cache, 'link'), read, full, NOW, counting().build);
      const bytes = outcome.bytes((answer) => JSON.stringify(answer));
      assert.ok(bytes.length < 100, 'a short answer, which Buffer.from would put in a slab');
      assert.equal(bytes.buffer.byteLength, bytes.length);
    }
  });

  test('a transient read is answered without being remembered', async () => {
    const cache = new VerificationCache();
    const b = counting();
    const once: ChainRead = { state: state(), snapshot: undefined, transient: true };
    await cache.answer(link(cache, 'link'), once, false, NOW, b.build);
    await cache.answer(link(cache, 'link'), once, true, NOW, b.build);
    assert.equal(b.calls(), 2);
    assert.equal(cache.size.answers, 0);
  });

  test('answers are bounded by weight, the least recently used going first', async () => {
    const cache = new VerificationCache({ answerBytes: 4_500 });
    const b = counting();
    for (const snapshot of ['a', 'b', 'c', 'd', 'a']) {
      await cache.answer(link(cache, 'link'), { state: state(), snapshot }, false, NOW, b.build);
    }
    assert.ok(cache.size.answers <= 2, `${cache.size.answers} answers kept`);
    assert.equal(b.calls(), 5, 'the first answer had been dropped and was built again');
  });
});
