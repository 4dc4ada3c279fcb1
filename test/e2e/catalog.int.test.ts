/**
 * The product catalogue end to end: `erx catalog import` (run as the operator runs it, beside the
 * serving erx, on its database) fills the catalogue from the invented sample list; the name search
 * (`GET /ePrescription/catalog`, any signed-in client) and the GTIN names
 * (`GET /ePrescription/catalog/names`, anyone) answer `[]` before and the sample's articles after.
 * Bad queries are 400 in the error shape; a malformed or missing file changes nothing.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { CATALOG_OLDER_SAMPLE, CATALOG_SAMPLE, importCatalog } from '../support/catalog.js';
import type { CliRun } from '../support/catalog.js';
import { assertError } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';

describe('the product catalogue', () => {
  const server = useTestServer();
  const search = (query: string, token: string | undefined = server.pharmacist.token) =>
    server.request('GET', `/ePrescription/catalog?${query}`, token ? { token } : {});
  const names = (query: string) => server.request('GET', `/ePrescription/catalog/names?${query}`);

  describe('before any import', () => {
    it('finds nothing and names nothing', async () => {
      const found = await search('q=febri');
      assert.equal(found.status, 200, found.text);
      assert.deepEqual(found.json, []);
      const named = await names('gtin=7680991010016');
      assert.equal(named.status, 200, named.text);
      assert.deepEqual(named.json, []);
    });
  });

  describe('after erx catalog import of the sample', () => {
    let run: CliRun;
    before(async () => {
      run = await importCatalog(server, CATALOG_SAMPLE);
    });

    it('reports what it imported and skipped', () => {
      assert.equal(run.status, 0, run.stderr);
      assert.match(run.stdout, /^imported 7 of 10 articles \(refdata-articles\); skipped 3 /);
      assert.match(run.stdout, /no valid GTIN: 1, no name: 1, repeated GTIN: 1/);
    });

    it('finds names for either role, case and accents ignored, at most limit', async () => {
      const found = await search('q=FEBRI', server.doctor.token);
      assert.equal(found.status, 200, found.text);
      assert.deepEqual(
        found.json.map((a: { gtin: string }) => a.gtin),
        ['7680991010023', '7680991010016'],
      );
      const one = await search('q=febri&limit=1');
      assert.deepEqual(
        one.json.map((a: { gtin: string }) => a.gtin),
        ['7680991010023'],
      );
      const accent = await search(`q=${encodeURIComponent('crème')}`);
      assert.deepEqual(accent.json, [
        {
          gtin: '7680991040013',
          name_de: 'ÉPIDERMA Crème 1 % Tb 30 g',
          name_fr: 'ÉPIDERMA crème 1 % tb 30 g',
        },
      ]);
    });

    it('names GTINs for anyone, one parameter or several', async () => {
      const one = await names('gtin=7680991030014');
      assert.equal(one.status, 200, one.text);
      assert.deepEqual(
        one.json.map((a: { name_de: string }) => a.name_de),
        ['DORMIVAL Kaps 10 mg 30 Stk'],
      );
      const several = await names('gtin=7680991040013&gtin=7680999999999&gtin=7680991010016');
      assert.deepEqual(
        several.json.map((a: { gtin: string }) => a.gtin),
        ['7680991010016', '7680991040013'],
      );
    });

    it('refuses a search without a token or with a bad one', async () => {
      assertError(await search('q=febri', ''), 401, 'unauthorized');
      assertError(await search('q=febri', 'not-a-token'), 401, 'unauthorized');
    });

    it('refuses bad queries with 400', async () => {
      for (const query of [
        'q=f',
        `q=${'a'.repeat(61)}`,
        'q=febri&limit=0',
        'q=febri&limit=51',
        'q=febri&limit=x',
        'q=febri&other=1',
        'limit=5',
        'q=%FF%FE',
        'q=a%00b',
      ]) {
        assertError(await search(query), 400, 'bad_request');
      }
      const tooMany = Array.from({ length: 51 }, () => 'gtin=7680991010016').join('&');
      for (const query of ['', 'gtin=abc', 'gtin=123', tooMany, 'gtin=7680991010016&q=x']) {
        assertError(await names(query), 400, 'bad_request');
      }
    });

    it('keeps the catalogue when a later file is missing or malformed', async () => {
      const missing = await importCatalog(server, join(server.dataDir, 'missing.xml'));
      assert.equal(missing.status, 1);
      assert.match(missing.stderr, /cannot be read .*no such file/);
      const broken = join(server.dataDir, 'broken.xml');
      writeFileSync(broken, '<Articles><Article><PackagedProduct></Article></Articles>');
      const malformed = await importCatalog(server, broken);
      assert.equal(malformed.status, 1);
      assert.match(malformed.stderr, /not well-formed XML \(line 1, column \d+: /);
      const found = await search('q=febri');
      assert.equal(found.json.length, 2);
    });

    it('replaces the catalogue with the older form of the list, Pharmacodes included', async () => {
      const older = await importCatalog(server, CATALOG_OLDER_SAMPLE);
      assert.equal(older.status, 0, older.stderr);
      assert.match(older.stdout, /^imported 3 of 4 articles \(refdata-article-out\)/);
      const found = await search('q=febri');
      assert.deepEqual(found.json, [
        {
          gtin: '7680991010016',
          pharmacode: '9900011',
          name_de: 'FEBRIDOL Tabl 500 mg 16 Stk',
          name_fr: 'FEBRIDOL cpr 500 mg 16 pce',
        },
      ]);
      assert.deepEqual((await search('q=dormival')).json, []);
    });
  });
});
