/** Contract: the embedded token service's clients and tokens (hashes only, never secrets). */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { clientRow, tokenRow, withFixture } from './fixture.js';
import type { OpenFixture } from './fixture.js';
import { AlreadyExists } from '../../src/store/races.js';

/** Registers the client and token tests of the contract. */
export function clientContract(open: OpenFixture): void {
  it('adds, reads, lists in byte order and removes clients', () =>
    withFixture(open, async ({ store }) => {
      assert.deepEqual(await store.clients.list(), []);
      const rows = [clientRow('b-pharma'), clientRow('a-doc', 'prescriber'), clientRow('B-pharma')];
      for (const row of rows) await store.clients.add(row);
      assert.deepEqual(await store.clients.get('a-doc'), rows[1]);
      assert.equal(await store.clients.get('unknown'), undefined);
      assert.deepEqual(
        (await store.clients.list()).map((c) => c.clientId),
        ['B-pharma', 'a-doc', 'b-pharma'],
      );
      assert.equal(await store.clients.remove('a-doc'), true);
      assert.equal(await store.clients.remove('a-doc'), false);
      assert.equal(await store.clients.get('a-doc'), undefined);
      assert.deepEqual(await store.clients.list(), [rows[2], rows[0]]);
    }));

  it('refuses a second client with the same id as conflict and keeps the first', () =>
    withFixture(open, async ({ store }) => {
      const first = clientRow('dup');
      await store.clients.add(first);
      await assert.rejects(
        store.clients.add({ ...clientRow('dup', 'prescriber'), name: 'other' }),
        (e: unknown) => e instanceof AlreadyExists && e.what === 'client',
      );
      assert.deepEqual(await store.clients.get('dup'), first);
    }));

  it('replaces a client’s secret hash only while it is still the expected one', () =>
    withFixture(open, async ({ store }) => {
      const row = clientRow('c1');
      await store.clients.add(row);
      assert.equal(await store.clients.replaceSecretHash('c1', 'not-the-hash', 'new'), false);
      assert.equal(await store.clients.replaceSecretHash('nobody', row.secretHash, 'new'), false);
      assert.deepEqual(await store.clients.get('c1'), row);
      assert.equal(await store.clients.replaceSecretHash('c1', row.secretHash, 'new'), true);
      assert.deepEqual(await store.clients.get('c1'), { ...row, secretHash: 'new' });
      assert.equal(await store.clients.replaceSecretHash('c1', row.secretHash, 'newer'), false);
    }));

  it('stores, replaces and removes a client’s profile without touching its secret hash', () =>
    withFixture(open, async ({ store }) => {
      const profile = JSON.stringify({ name: 'Dr. med. Anna Muster', gln: '7601000000001' });
      const row = { ...clientRow('doc', 'prescriber'), profile };
      await store.clients.add(row);
      await store.clients.add(clientRow('plain', 'prescriber'));
      assert.deepEqual(await store.clients.get('doc'), row);
      assert.equal('profile' in ((await store.clients.get('plain')) ?? {}), false);

      const next = JSON.stringify({ name: 'Dr. med. Anna Muster-Meier' });
      assert.equal(await store.clients.setProfile('doc', next), true);
      assert.deepEqual(await store.clients.get('doc'), { ...row, profile: next });
      assert.deepEqual(
        (await store.clients.list()).map((c) => c.profile),
        [next, undefined],
      );
      assert.equal(await store.clients.setProfile('doc', null), true);
      assert.deepEqual(await store.clients.get('doc'), clientRow('doc', 'prescriber'));
      assert.equal(await store.clients.setProfile('nobody', next), false);
      assert.equal(await store.clients.get('nobody'), undefined);
    }));

  it('stores tokens, purges expired ones, and drops a client’s tokens with the client', () =>
    withFixture(open, async ({ store }) => {
      await store.clients.add(clientRow('c1'));
      await store.clients.add(clientRow('c2'));
      const early = tokenRow('t-early', 'c1', 1_700_000_000_000);
      const late = tokenRow('t-late', 'c1', 1_800_000_000_000);
      const other = tokenRow('t-other', 'c2', 1_800_000_000_000);
      for (const t of [early, late, other]) await store.clients.insertToken(t);
      assert.deepEqual(await store.clients.getToken('t-early'), early);
      assert.equal(await store.clients.getToken('unknown'), undefined);

      assert.equal(await store.clients.purgeTokens(1_750_000_000_000), 1);
      assert.equal(await store.clients.getToken('t-early'), undefined);
      assert.deepEqual(await store.clients.getToken('t-late'), late);

      assert.equal(await store.clients.remove('c1'), true);
      assert.equal(await store.clients.getToken('t-late'), undefined);
      assert.deepEqual(await store.clients.getToken('t-other'), other);
    }));

  it('refuses a token of an unknown client', () =>
    withFixture(open, async ({ store }) => {
      await assert.rejects(
        store.clients.insertToken(tokenRow('t-orphan', 'nobody', 1_800_000_000_000)),
        (e: unknown) => e instanceof Error,
      );
      assert.equal(await store.clients.getToken('t-orphan'), undefined);
    }));
}
