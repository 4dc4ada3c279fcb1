/**
 * A streaming reader of Refdata's public article list, in either of its published forms:
 *
 * - `Articles` (namespace `https://simisinfo.refdata.ch/Articles/1.0/`, `Refdata.Articles.xml`):
 *   `Article/PackagedProduct/DataCarrierIdentifier` is the GTIN, each `PackagedProduct/Name` a
 *   `Language` (`DE`, `FR`, …) with its `FullName`. It carries no Pharmacode.
 * - `ARTICLE` (namespace `http://refdatabase.refdata.ch/Article_out`, the older download): one
 *   `ITEM` per article with `GTIN`, `PHAR` (the Pharmacode, left out of later files), `NAME_DE`,
 *   `NAME_FR`, and a closing `RESULT/OK_ERROR` that says whether the export succeeded.
 *
 * Elements are matched by local name, so a prefix or another namespace URI does not matter.
 * The text of an article is handed on raw; what is kept of it is decided by `./catalog-article.ts`.
 * Nothing of the whole document is held: a list of 100,000 articles is read in constant memory.
 */
import { SaxesParser } from 'saxes';
import type { SaxesTagNS } from 'saxes';
import { CatalogFileError } from './catalog-file-error.js';

/** One article's text as the list has it (empty where the list has none). */
export interface RawArticle {
  gtin: string;
  pharmacode: string;
  nameDe: string;
  nameFr: string;
}

/** Which of the two forms a list has. */
export type ArticleListFormat = 'refdata-articles' | 'refdata-article-out';

/**
 * Longest text kept of one element; longer text is cut here (the lists' names are at most 80
 * characters and `./catalog-article.ts` refuses a name over its own bound, so a cut one is never
 * kept). Bounds the memory one element can take.
 */
const MAX_TEXT = 1_000;

/** The elements whose text is read, by the element they sit in. */
const LEAVES: Readonly<Record<ArticleListFormat, Readonly<Record<string, string>>>> = {
  'refdata-articles': {
    DataCarrierIdentifier: 'PackagedProduct',
    Language: 'Name',
    FullName: 'Name',
  },
  'refdata-article-out': {
    GTIN: 'ITEM',
    PHAR: 'ITEM',
    NAME_DE: 'ITEM',
    NAME_FR: 'ITEM',
    OK_ERROR: 'RESULT',
  },
};

const ROOTS: Readonly<Record<string, ArticleListFormat>> = {
  Articles: 'refdata-articles',
  ARTICLE: 'refdata-article-out',
};

/** The element that holds one article, in each form. */
const ARTICLE_ELEMENT: Readonly<Record<ArticleListFormat, string>> = {
  'refdata-articles': 'Article',
  'refdata-article-out': 'ITEM',
};

function emptyArticle(): RawArticle {
  return { gtin: '', pharmacode: '', nameDe: '', nameFr: '' };
}

/** Reads an article list written to it in pieces; see the file comment. */
export class ArticleListParser {
  readonly #sax = new SaxesParser({ xmlns: true, position: true });
  readonly #onArticle: (article: RawArticle) => void;
  /** Local names of the open elements, the root first. */
  readonly #open: string[] = [];
  #format: ArticleListFormat | undefined;
  #article: RawArticle | undefined;
  /** The text of the leaf being read, while one is. */
  #text: string | undefined;
  #language = '';
  #fullName = '';
  #exportFailed = false;

  /** `onArticle` is called once per article, in document order, as soon as it is read. */
  constructor(onArticle: (article: RawArticle) => void) {
    this.#onArticle = onArticle;
    this.#sax.on('opentag', (tag) => this.#opened(tag));
    this.#sax.on('closetag', (tag) => this.#closed(tag));
    this.#sax.on('text', (text) => this.#read(text));
    this.#sax.on('cdata', (text) => this.#read(text));
    // The first error ends the parse: what follows a malformed spot is not worth reading.
    this.#sax.on('error', (error) => {
      const { line, column } = this.#sax;
      const prefix = `${line}:${column}: `;
      const message = error.message.startsWith(prefix)
        ? error.message.slice(prefix.length)
        : error.message;
      throw new CatalogFileError('not_xml', { line, column, message });
    });
  }

  /** Parses the next piece of the document; throws {@link CatalogFileError} when it is not XML. */
  write(text: string): void {
    this.#sax.write(text);
  }

  /** Ends the document: the form it had, or {@link CatalogFileError} when it was cut short. */
  close(): ArticleListFormat {
    this.#sax.close();
    if (this.#format === undefined) throw new CatalogFileError('not_article_list');
    if (this.#exportFailed) throw new CatalogFileError('export_failed');
    return this.#format;
  }

  #opened(tag: SaxesTagNS): void {
    const local = tag.local;
    const parent = this.#open.at(-1);
    this.#open.push(local);
    if (parent === undefined) {
      this.#format = ROOTS[local];
      if (this.#format === undefined) throw new CatalogFileError('not_article_list');
      return;
    }
    const format = this.#format as ArticleListFormat;
    if (this.#open.length === 2 && local === ARTICLE_ELEMENT[format]) {
      this.#article = emptyArticle();
    } else if (local === 'Name' && parent === 'PackagedProduct') {
      this.#language = '';
      this.#fullName = '';
    }
    const within = LEAVES[format][local];
    this.#text = within !== undefined && within === parent ? '' : undefined;
  }

  #read(text: string): void {
    if (this.#text !== undefined && this.#text.length < MAX_TEXT) {
      this.#text = (this.#text + text).slice(0, MAX_TEXT + 1);
    }
  }

  #closed(tag: SaxesTagNS): void {
    const local = tag.local;
    this.#open.pop();
    const text = this.#text;
    this.#text = undefined;
    if (text !== undefined) this.#leaf(local, text);
    else if (local === 'Name' && this.#open.at(-1) === 'PackagedProduct') this.#name();
    else if (this.#open.length === 1 && this.#article !== undefined) {
      this.#onArticle(this.#article);
      this.#article = undefined;
    }
  }

  /** A leaf's text, into the article (or the result of the export). */
  #leaf(local: string, text: string): void {
    const article = this.#article;
    if (local === 'OK_ERROR') {
      this.#exportFailed = text.trim().toUpperCase() === 'ERROR';
      return;
    }
    if (article === undefined) return;
    if (local === 'GTIN' || local === 'DataCarrierIdentifier') article.gtin = text;
    else if (local === 'PHAR') article.pharmacode = text;
    else if (local === 'NAME_DE') article.nameDe = text;
    else if (local === 'NAME_FR') article.nameFr = text;
    else if (local === 'Language') this.#language = text.trim().toUpperCase();
    else if (local === 'FullName') this.#fullName = text;
  }

  /** A `PackagedProduct/Name` read whole: its name in German or French, the others left. */
  #name(): void {
    const article = this.#article;
    if (article === undefined) return;
    if (this.#language === 'DE') article.nameDe = this.#fullName;
    else if (this.#language === 'FR') article.nameFr = this.#fullName;
  }
}
