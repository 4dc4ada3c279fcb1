/**
 * The article list reader on the invented samples of both forms (test/fixtures/catalog), fed
 * whole and in small pieces, and on malformed input: each refusal names its reason.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readArticleListFile, readArticles } from './read-article-list.js';
import type { ArticleList } from './read-article-list.js';
import { CatalogFileError } from './catalog-file-error.js';
import type { CatalogFileReason } from './catalog-file-error.js';
import { replaceCatalog } from './import-catalog.js';
import type { CatalogStore } from '../store/catalog.js';

const fixture = (name: string): string =>
  fileURLToPath(new URL(`../../test/fixtures/catalog/${name}`, import.meta.url));
const SAMPLE = fixture('articles-sample.xml');
const OLDER = fixture('article-out-sample.xml');

/** `bytes` in pieces of `size`, as a stream would hand them on. */
async function* pieces(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const read = (text: string | Uint8Array): Promise<ArticleList> =>
  readArticles(pieces(typeof text === 'string' ? Buffer.from(text) : text, 1 << 16));

async function refused(text: string | Uint8Array, reason: CatalogFileReason): Promise<void> {
  await assert.rejects(read(text), (e: unknown) => {
    assert.ok(e instanceof CatalogFileError, String(e));
    assert.equal(e.reason, reason, e.message);
    assert.equal(e.code, 'bad_request');
    return true;
  });
}

const ARTICLES_NS = 'https://simisinfo.refdata.ch/Articles/1.0/';

/** A list of the current form holding `articles` (XML of `Article` elements). */
const list = (articles: string): string =>
  `<?xml version="1.0" encoding="utf-8"?><Articles xmlns="${ARTICLES_NS}">${articles}</Articles>`;

describe('article list reader', () => {
  it('reads the current form (Refdata.Articles.xml): GTIN and German and French names', async () => {
    const result = await readArticleListFile(SAMPLE);
    assert.equal(result.format, 'refdata-articles');
    assert.equal(result.read, 10);
    assert.deepEqual(result.skipped, { gtin: 1, name: 1, duplicate: 1 });
    assert.deepEqual(
      result.rows.map((r) => r.gtin),
      [
        '7680991010016',
        '7680991010023',
        '7680991020015',
        '7680991030014',
        '7680991040013',
        '7640999000013',
        '7680991070010',
      ],
    );
    // The first of a repeated GTIN is kept; the Italian name is not read.
    assert.deepEqual(result.rows[0], {
      gtin: '7680991010016',
      pharmacode: undefined,
      nameDe: 'FEBRIDOL Tabl 500 mg 16 Stk',
      nameFr: 'FEBRIDOL cpr 500 mg 16 pce',
      search: 'febridol tabl 500 mg 16 stk\nfebridol cpr 500 mg 16 pce',
    });
    // A GTIN-14 with a leading 0 is kept as its GTIN-13; a missing French name is the German one.
    assert.deepEqual(result.rows[6], {
      gtin: '7680991070010',
      pharmacode: undefined,
      nameDe: 'VETOSAN Pulver 1 kg',
      nameFr: 'VETOSAN Pulver 1 kg',
      search: 'vetosan pulver 1 kg',
    });
  });

  it('reads the older form (ARTICLE/ITEM) with Pharmacodes, CDATA and a namespace', async () => {
    const result = await readArticleListFile(OLDER);
    assert.equal(result.format, 'refdata-article-out');
    assert.equal(result.read, 4);
    assert.deepEqual(result.skipped, { gtin: 1, name: 0, duplicate: 0 });
    assert.deepEqual(
      result.rows.map((r) => [r.gtin, r.pharmacode, r.nameDe]),
      [
        ['7680991010016', '9900011', 'FEBRIDOL Tabl 500 mg 16 Stk'],
        ['7680991040013', '9900042', 'ÉPIDERMA Crème 1 % Tb 30 g'],
        // 'ABC' is no Pharmacode: the article is kept without one.
        ['7640999000013', undefined, 'CALMOSAN Kräutertee Btl 20 Stk'],
      ],
    );
  });

  it('reads the same whatever the pieces, characters split between them included', async () => {
    const bytes = readFileSync(SAMPLE);
    const whole = await readArticles(pieces(bytes, bytes.length));
    for (const size of [1, 7, 4096]) {
      assert.deepEqual(await readArticles(pieces(bytes, size)), whole, `pieces of ${size}`);
    }
  });

  it('tidies white space in names and reads prefixed elements by local name', async () => {
    const result = await read(
      `<a:Articles xmlns:a="${ARTICLES_NS}"><a:Article><a:PackagedProduct>` +
        '<a:DataCarrierIdentifier> 7680991030014 </a:DataCarrierIdentifier>' +
        '<a:Name><a:Language>de</a:Language><a:FullName>  DORMIVAL\n  Kaps </a:FullName></a:Name>' +
        '</a:PackagedProduct></a:Article></a:Articles>',
    );
    assert.deepEqual(
      result.rows.map((r) => [r.gtin, r.nameDe, r.nameFr]),
      [['7680991030014', 'DORMIVAL Kaps', 'DORMIVAL Kaps']],
    );
  });

  it('drops bidi controls from names and reads control characters as spaces', async () => {
    const result = await read(
      list(
        '<Article><PackagedProduct><DataCarrierIdentifier>7680991030014</DataCarrierIdentifier>' +
          '<Name><Language>DE</Language><FullName>DORMI\u202eVAL\u2066\u0085Kaps\u009b31m</FullName></Name>' +
          '</PackagedProduct></Article>',
      ),
    );
    assert.deepEqual(
      result.rows.map((r) => [r.nameDe, r.nameFr]),
      [['DORMIVAL Kaps 31m', 'DORMIVAL Kaps 31m']],
    );
  });

  it('skips an article with a name over 200 characters', async () => {
    const name = 'A'.repeat(201);
    const result = await read(
      list(
        '<Article><PackagedProduct><DataCarrierIdentifier>7680991030014</DataCarrierIdentifier>' +
          `<Name><Language>DE</Language><FullName>${name}</FullName></Name>` +
          '</PackagedProduct></Article>',
      ),
    );
    assert.deepEqual(result.skipped, { gtin: 0, name: 1, duplicate: 0 });
    assert.deepEqual(result.rows, []);
  });

  it('refuses what is not a well-formed article list, each for its reason', async () => {
    await refused('', 'not_xml');
    await refused('{"not": "xml"}', 'not_xml');
    await refused(list('<Article><PackagedProduct>').replace('</Articles>', ''), 'not_xml');
    await refused('<Articles><Article></Articles>', 'not_xml');
    await refused(list('<Article>&undefined;</Article>'), 'not_xml');
    // No entity of a document type is expanded (no "billion laughs").
    await refused(
      '<!DOCTYPE Articles [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]>' +
        '<Articles><Article>&b;</Article></Articles>',
      'not_xml',
    );
    await refused('<?xml version="1.0"?><Preparations/>', 'not_article_list');
    await refused(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00]), 'zip');
    await refused(Uint8Array.from([...Buffer.from('<Articles>'), 0xff, 0xfe]), 'not_utf8');
    await refused(
      '<ARTICLE><RESULT><OK_ERROR>ERROR</OK_ERROR><ERROR_CODE>1</ERROR_CODE></RESULT></ARTICLE>',
      'export_failed',
    );
  });

  it('says where the XML is broken', async () => {
    await assert.rejects(read('<Articles>\n  <Article>\n</Articles>'), (e: unknown) => {
      assert.ok(e instanceof CatalogFileError);
      assert.match(e.message, /^The article list is not well-formed XML \(line 3, column \d+: /);
      return true;
    });
  });

  it('refuses a file it cannot read, naming the problem', async () => {
    await assert.rejects(readArticleListFile('/nonexistent/articles.xml'), (e: unknown) => {
      assert.ok(e instanceof CatalogFileError);
      assert.equal(e.reason, 'unreadable');
      assert.match(e.message, /no such file/);
      return true;
    });
    await assert.rejects(
      readArticleListFile(fileURLToPath(new URL('.', import.meta.url))),
      (e: unknown) => e instanceof CatalogFileError && e.reason === 'unreadable',
    );
  });

  it('never replaces the catalogue with a list that keeps no article', async () => {
    let replaced = false;
    const catalog = {
      replace: async () => {
        replaced = true;
        return 0;
      },
    } as unknown as CatalogStore;
    const empty = await read(list(''));
    assert.equal(empty.read, 0);
    await assert.rejects(
      replaceCatalog(catalog, empty),
      (e: unknown) => e instanceof CatalogFileError && e.reason === 'no_articles',
    );
    assert.equal(replaced, false);
  });
});
