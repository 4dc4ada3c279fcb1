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
      assert.deepEqual(await store.listClients(), []);
      const rows = [clientRow('b-pharma'), clientRow('a-doc', 'prescriber'), clientRow('B-pharma')];
      for (const row of rows) await store.addClient(row);
      assert.deepEqual(await store.getClient('a-doc'), rows[1]);
      assert.equal(await store.getClient('unknown'), undefined);
      assert.deepEqual(
        (await store.listClients()).map((c) => c.clientId),
        ['B-pharma', 'a-doc', 'b-pharma'],
      );
      assert.equal(await store.removeClient('a-doc'), true);
      assert.equal(await store.removeClient('a-doc'), false);
      assert.equal(await store.getClient('a-doc'), undefined);
      assert.deepEqual(await store.listClients(), [rows[2], rows[0]]);
    }));

  it('refuses a second client with the same id as conflict and keeps the first', () =>
    withFixture(open, async ({ store }) => {
      const first = clientRow('dup');
      await store.addClient(first);
      await assert.rejects(
        store.addClient({ ...clientRow('dup', 'prescriber'), name: 'other' }),
        (e: unknown) => e instanceof AlreadyExists && e.what === 'client',
      );
      assert.deepEqual(await store.getClient('dup'), first);
    }));

  it('replaces a client’s secret hash only while it is still the expected one', () =>
    withFixture(open, async ({ store }) => {
      const row = clientRow('c1');
      await store.addClient(row);
      assert.equal(await store.replaceClientSecretHash('c1', 'not-the-hash', 'new'), false);
      assert.equal(await store.replaceClientSecretHash('nobody', row.secretHash, 'new'), false);
      assert.deepEqual(await store.getClient('c1'), row);
      assert.equal(await store.replaceClientSecretHash('c1', row.secretHash, 'new'), true);
      assert.deepEqual(await store.getClient('c1'), { ...row, secretHash: 'new' });
      assert.equal(await store.replaceClientSecretHash('c1', row.secretHash, 'newer'), false);
    }));

  it('stores, replaces and removes a client’s profile without touching its secret hash', () =>
    withFixture(open, async ({ store }) => {
      const profile = JSON.stringify({ name: 'Dr. med. Anna Muster', gln: '7601000000001' });
      const row = { ...clientRow('doc', 'prescriber'), profile };
      await store.addClient(row);
      await store.addClient(clientRow('plain', 'prescriber'));
      assert.deepEqual(await store.getClient('doc'), row);
      assert.equal('profile' in ((await store.getClient('plain')) ?? {}), false);

      const next = JSON.stringify({ name: 'Dr. med. Anna Muster-Meier' });
      assert.equal(await store.setClientProfile('doc', next), true);
      assert.deepEqual(await store.getClient('doc'), { ...row, profile: next });
      assert.deepEqual(
        (await store.listClients()).map((c) => c.profile),
        [next, undefined],
      );
      assert.equal(await store.setClientProfile('doc', null), true);
      assert.deepEqual(await store.getClient('doc'), clientRow('doc', 'prescriber'));
      assert.equal(await store.setClientProfile('nobody', next), false);
      assert.equal(await store.getClient('nobody'), undefined);
    }));

  it('stores tokens, purges expired ones, and drops a client’s tokens with the client', () =>
    withFixture(open, async ({ store }) => {
      await store.addClient(clientRow('c1'));
      await store.addClient(clientRow('c2'));
      const early = tokenRow('t-early', 'c1', 1_700_000_000_000);
      const late = tokenRow('t-late', 'c1', 1_800_000_000_000);
      const other = tokenRow('t-other', 'c2', 1_800_000_000_000);
      for (const t of [early, late, other]) await store.insertToken(t);
      assert.deepEqual(await store.getToken('t-early'), early);
      assert.equal(await store.getToken('unknown'), undefined);

      assert.equal(await store.purgeTokens(1_750_000_000_000), 1);
      assert.equal(await store.getToken('t-early'), undefined);
      assert.deepEqual(await store.getToken('t-late'), late);

      assert.equal(await store.removeClient('c1'), true);
      assert.equal(await store.getToken('t-late'), undefined);
      assert.deepEqual(await store.getToken('t-other'), other);
    }));

  it('refuses a token of an unknown client', () =>
    withFixture(open, async ({ store }) => {
      await assert.rejects(
        store.insertToken(tokenRow('t-orphan', 'nobody', 1_800_000_000_000)),
        (e: unknown) => e instanceof Error,
      );
      assert.equal(await store.getToken('t-orphan'), undefined);
    }));
}
