/**
 * Contract: the product catalogue (`Store.catalog`): replaced whole and atomically, searched by
 * folded name with names that start with the query first, and looked up by GTIN. Filled from the
 * invented sample list through the import's own reader, so import and search are tested together.
 */
import assert from 'node:assert/strict';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { replaceCatalog } from '../../src/catalog/import-catalog.js';
import { catalogNames, searchCatalog } from '../../src/catalog/lookup.js';
import { readArticleListFile } from '../../src/catalog/read-article-list.js';
import type { CatalogRow } from '../../src/store/catalog.js';
import { withFixture } from './fixture.js';
import type { OpenFixture } from './fixture.js';

const SAMPLE = fileURLToPath(new URL('../fixtures/catalog/articles-sample.xml', import.meta.url));

function row(gtin: string, name: string): CatalogRow {
  return { gtin, pharmacode: undefined, nameDe: name, nameFr: name, search: name.toLowerCase() };
}

/** Registers the catalogue tests of the contract. */
export function catalogContract(open: OpenFixture): void {
  it('is empty before any import: nothing found, nothing named', () =>
    withFixture(open, async ({ store }) => {
      assert.equal(await store.catalog.count(), 0);
      assert.deepEqual(await searchCatalog(store.catalog, 'febri', 10), []);
      assert.deepEqual(await catalogNames(store.catalog, ['7680991010016']), []);
    }));

  it('imports the sample list and finds names by any part, case and accents ignored', () =>
    withFixture(open, async ({ store }) => {
      const result = await replaceCatalog(store.catalog, await readArticleListFile(SAMPLE));
      assert.equal(result.imported, 7);
      assert.equal(await store.catalog.count(), 7);
      const names = async (q: string, limit = 10): Promise<string[]> =>
        (await searchCatalog(store.catalog, q, limit)).map((a) => a.name_de);
      assert.deepEqual(await names('FEBRI'), [
        'FEBRIDOL Tabl 500 mg 100 Stk',
        'FEBRIDOL Tabl 500 mg 16 Stk',
      ]);
      assert.deepEqual(await names('creme'), ['ÉPIDERMA Crème 1 % Tb 30 g']);
      assert.deepEqual(await names('Épi'), ['ÉPIDERMA Crème 1 % Tb 30 g']);
      // French names are searched too.
      assert.deepEqual(await names('tisane'), ['CALMOSAN Kräutertee Btl 20 Stk']);
      // A name that starts with the query comes before one that holds it further on.
      assert.deepEqual(await names('do'), [
        'DORMIVAL Kaps 10 mg 30 Stk',
        'FEBRIDOL Tabl 500 mg 100 Stk',
        'FEBRIDOL Tabl 500 mg 16 Stk',
      ]);
      assert.deepEqual(await names('do', 2), [
        'DORMIVAL Kaps 10 mg 30 Stk',
        'FEBRIDOL Tabl 500 mg 100 Stk',
      ]);
      assert.deepEqual(await names('zz-nothing'), []);
      // Every word must match, in any order, each anywhere in the name.
      assert.deepEqual(await names('febridol 16'), ['FEBRIDOL Tabl 500 mg 16 Stk']);
      assert.deepEqual(await names('16  Fébridol'), ['FEBRIDOL Tabl 500 mg 16 Stk']);
      assert.deepEqual(await names('stk 500 mg'), [
        'FEBRIDOL Tabl 500 mg 100 Stk',
        'FEBRIDOL Tabl 500 mg 16 Stk',
      ]);
      assert.deepEqual(await names('febridol 17'), []);
    }));

  it('names known GTINs in GTIN order and leaves unknown or malformed ones out', () =>
    withFixture(open, async ({ store }) => {
      await replaceCatalog(store.catalog, await readArticleListFile(SAMPLE));
      const found = await catalogNames(store.catalog, [
        '7680991040013',
        '7680991010016',
        '07680991010016',
        '7680991010017',
        '7680000000000',
        'abc',
      ]);
      assert.deepEqual(found, [
        {
          gtin: '7680991010016',
          name_de: 'FEBRIDOL Tabl 500 mg 16 Stk',
          name_fr: 'FEBRIDOL cpr 500 mg 16 pce',
        },
        {
          gtin: '7680991040013',
          name_de: 'ÉPIDERMA Crème 1 % Tb 30 g',
          name_fr: 'ÉPIDERMA crème 1 % tb 30 g',
        },
      ]);
    }));

  it('replaces the whole catalogue, and a replacement that fails leaves the old one', () =>
    withFixture(open, async ({ store, openSibling }) => {
      await replaceCatalog(store.catalog, await readArticleListFile(SAMPLE));
      assert.equal(await store.catalog.replace([row('7680991020015', 'Nur Eins')]), 1);
      assert.deepEqual(
        (await store.catalog.search(['eins'], 10)).map((r) => r.gtin),
        ['7680991020015'],
      );
      assert.deepEqual(await store.catalog.search(['febridol'], 10), []);
      // The same GTIN twice fails half-way: nothing of it is kept.
      const failing = [row('7680991030014', 'Neu A'), row('7680991030014', 'Neu B')];
      await assert.rejects(store.catalog.replace(failing));
      assert.equal(await store.catalog.count(), 1);
      assert.deepEqual((await store.catalog.byGtin(['7680991020015']))[0]?.nameDe, 'Nur Eins');
      // Another instance over the same database sees the same catalogue.
      const sibling = await openSibling();
      assert.equal(await sibling.catalog.count(), 1);
    }));
}
