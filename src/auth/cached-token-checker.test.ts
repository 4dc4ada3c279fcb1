import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ErxError } from '../errors.js';
import { CachedTokenChecker } from './cached-token-checker.js';
import type { Principal } from './principal.js';
import type { TokenChecker } from './token-checker.js';

const START = 1_700_000_000_000;

/** An inner checker that answers from a table, fails on demand and counts its calls. */
class TableChecker implements TokenChecker {
  readonly answers = new Map<string, Principal>();
  calls = 0;
  failing = false;

  async check(token: string): Promise<Principal | undefined> {
    this.calls++;
    if (this.failing) throw new ErxError('service_unavailable', 'down');
    return this.answers.get(token);
  }
}

function principal(sub: string, expiresAt: number): Principal {
  return { sub, name: sub, role: 'pharmacist', clientId: sub, expiresAt };
}

describe('CachedTokenChecker', () => {
  let now: number;
  let inner: TableChecker;
  let lookups: string[];
  let cached: CachedTokenChecker;

  beforeEach(() => {
    now = START;
    inner = new TableChecker();
    lookups = [];
    cached = new CachedTokenChecker(inner, {
      now: () => now,
      onLookup: (result) => lookups.push(result),
    });
  });

  it('answers a second check of an active token from memory', async () => {
    const alice = principal('alice', START / 1000 + 3600);
    inner.answers.set('t-alice', alice);
    assert.deepEqual(await cached.check('t-alice'), alice);
    assert.deepEqual(await cached.check('t-alice'), alice);
    assert.equal(inner.calls, 1);
    assert.deepEqual(lookups, ['miss', 'hit']);
  });

  it('remembers an active token for 60 s at most, then asks again', async () => {
    inner.answers.set('t', principal('alice', START / 1000 + 3600));
    await cached.check('t');
    now = START + 59_999;
    await cached.check('t');
    assert.equal(inner.calls, 1);
    now = START + 60_000;
    await cached.check('t');
    assert.equal(inner.calls, 2);
    assert.deepEqual(lookups, ['miss', 'hit', 'miss']);
  });

  it('remembers an active token no longer than it lives', async () => {
    inner.answers.set('t', principal('alice', START / 1000 + 20));
    await cached.check('t');
    now = START + 19_999;
    assert.equal((await cached.check('t'))?.sub, 'alice');
    assert.equal(inner.calls, 1);
    inner.answers.delete('t');
    now = START + 20_000;
    assert.equal(await cached.check('t'), undefined);
    assert.equal(inner.calls, 2);
  });

  it('does not remember an answer whose token is already expired', async () => {
    inner.answers.set('t', principal('alice', START / 1000));
    await cached.check('t');
    await cached.check('t');
    assert.equal(inner.calls, 2);
    assert.equal(cached.size, 0);
  });

  it('remembers an inactive token for 5 s, then asks again', async () => {
    assert.equal(await cached.check('t-new'), undefined);
    inner.answers.set('t-new', principal('bob', START / 1000 + 3600));
    now = START + 4_999;
    assert.equal(await cached.check('t-new'), undefined);
    assert.equal(inner.calls, 1);
    now = START + 5_000;
    assert.equal((await cached.check('t-new'))?.sub, 'bob');
    assert.equal(inner.calls, 2);
    assert.deepEqual(lookups, ['miss', 'hit', 'miss']);
  });

  it('never remembers a failure (503)', async () => {
    inner.failing = true;
    const unavailable = (error: unknown) =>
      error instanceof ErxError && error.code === 'service_unavailable';
    await assert.rejects(cached.check('t'), unavailable);
    await assert.rejects(cached.check('t'), unavailable);
    assert.equal(inner.calls, 2);
    assert.equal(cached.size, 0);
    inner.failing = false;
    inner.answers.set('t', principal('carol', START / 1000 + 3600));
    assert.equal((await cached.check('t'))?.sub, 'carol');
    assert.deepEqual(lookups, ['miss', 'miss', 'miss']);
  });

  it('shares one lookup between concurrent checks of one token', async () => {
    inner.answers.set('t', principal('dave', START / 1000 + 3600));
    const answers = await Promise.all([cached.check('t'), cached.check('t'), cached.check('t')]);
    assert.deepEqual(
      answers.map((p) => p?.sub),
      ['dave', 'dave', 'dave'],
    );
    assert.equal(inner.calls, 1);
  });

  it('keeps tokens apart', async () => {
    inner.answers.set('t1', principal('erin', START / 1000 + 3600));
    inner.answers.set('t2', principal('frank', START / 1000 + 3600));
    assert.equal((await cached.check('t1'))?.sub, 'erin');
    assert.equal((await cached.check('t2'))?.sub, 'frank');
    assert.equal(await cached.check('t3'), undefined);
    assert.equal(cached.size, 3);
  });

  it('holds at most maxEntries, dropping the oldest first', async () => {
    const small = new CachedTokenChecker(inner, { now: () => now, maxEntries: 3 });
    for (const token of ['a', 'b', 'c', 'd']) {
      inner.answers.set(token, principal(token, START / 1000 + 3600));
      await small.check(token);
    }
    assert.equal(small.size, 3);
    assert.equal(inner.calls, 4);
    await small.check('d');
    await small.check('b');
    assert.equal(inner.calls, 4, 'b and d are still held');
    await small.check('a');
    assert.equal(inner.calls, 5, 'a was dropped as the oldest');
  });

  describe('checkKnown (an address over its failure budget)', () => {
    it('answers an active token from memory', async () => {
      inner.answers.set('t', principal('alice', START / 1000 + 3600));
      await cached.check('t');
      assert.equal((await cached.checkKnown('t'))?.sub, 'alice');
      assert.equal(inner.calls, 1);
    });

    it('answers undefined for a token never seen active, without asking', async () => {
      inner.answers.set('t-new', principal('bob', START / 1000 + 3600));
      assert.equal(await cached.checkKnown('t-new'), undefined);
      assert.equal(await cached.check('t-inactive'), undefined);
      assert.equal(await cached.checkKnown('t-inactive'), undefined);
      assert.equal(inner.calls, 1, 'only the check of t-inactive asked');
    });

    it('asks again for a known token past 60 s, so a revoked one is refused', async () => {
      inner.answers.set('t', principal('carol', START / 1000 + 3600));
      await cached.check('t');
      now = START + 60_000;
      assert.equal((await cached.checkKnown('t'))?.sub, 'carol');
      assert.equal(inner.calls, 2);
      inner.answers.delete('t');
      now = START + 120_000;
      assert.equal(await cached.checkKnown('t'), undefined);
      assert.equal(inner.calls, 3);
      now = START + 180_000;
      assert.equal(await cached.checkKnown('t'), undefined);
      assert.equal(inner.calls, 3, 'a token found inactive is known no more');
    });

    it('forgets a token once it has expired', async () => {
      inner.answers.set('t', principal('dave', START / 1000 + 90));
      await cached.check('t');
      now = START + 90_000;
      assert.equal(await cached.checkKnown('t'), undefined);
      assert.equal(inner.calls, 1);
      assert.equal(cached.size, 0);
    });

    it('asks about a token never seen once the inner checker marks it as one it issued', async () => {
      const tagged = Object.assign(inner, {
        mayBeIssued: (token: string) => token.startsWith('ok-'),
      });
      const marked = new CachedTokenChecker(tagged, { now: () => now });
      inner.answers.set('ok-fresh', principal('erin', START / 1000 + 3600));
      assert.equal((await marked.checkKnown('ok-fresh'))?.sub, 'erin');
      assert.equal(inner.calls, 1);
      // Marked but inactive: asked once, then answered from memory while that answer is fresh.
      assert.equal(await marked.checkKnown('ok-stale'), undefined);
      assert.equal(await marked.checkKnown('ok-stale'), undefined);
      assert.equal(inner.calls, 2);
      // Unmarked (made up): never asked.
      for (let i = 0; i < 20; i++) assert.equal(await marked.checkKnown(`guess-${i}`), undefined);
      assert.equal(inner.calls, 2);
    });

    it('keeps known tokens when unknown ones overflow memory', async () => {
      const small = new CachedTokenChecker(inner, { now: () => now, maxEntries: 2 });
      inner.answers.set('a', principal('a', START / 1000 + 3600));
      await small.check('a');
      for (let i = 0; i < 10; i++) await small.check(`unknown-${i}`);
      assert.equal((await small.checkKnown('a'))?.sub, 'a');
      assert.equal(inner.calls, 11);
      assert.equal(small.size, 3);
    });
  });
});
