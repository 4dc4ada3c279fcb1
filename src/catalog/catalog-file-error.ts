/**
 * Why an article list could not be imported. The file is the operator's (`erx catalog import`),
 * never a client's, so the message names what is wrong and where, for the operator to fix.
 */
import { ErxError } from '../errors.js';

/** What is wrong with the file. */
export type CatalogFileReason =
  /** It cannot be opened or read (missing, a directory, no permission). */
  | 'unreadable'
  /** It is a ZIP archive (Refdata publishes the list zipped): unzip it first. */
  | 'zip'
  /** Its bytes are not UTF-8. */
  | 'not_utf8'
  /** It is not well-formed XML (or is cut short). */
  | 'not_xml'
  /** Well-formed, but neither form of Refdata's article list. */
  | 'not_article_list'
  /** The list's own result says the export failed (`RESULT/OK_ERROR` is `ERROR`). */
  | 'export_failed'
  /** More articles than erx keeps in one catalogue. */
  | 'too_many'
  /** Not one article of the list could be kept. */
  | 'no_articles';

const MESSAGES: Readonly<Record<CatalogFileReason, string>> = {
  unreadable: 'The article list cannot be read',
  zip: 'The article list is a ZIP archive; unzip it and import the XML file inside (Refdata.Articles.xml)',
  not_utf8: 'The article list is not UTF-8 text',
  not_xml: 'The article list is not well-formed XML',
  not_article_list:
    'The file is not a Refdata article list (root element Articles or ARTICLE expected)',
  export_failed: 'The article list says its export failed (RESULT/OK_ERROR is ERROR)',
  too_many: 'The article list holds more articles than a catalogue keeps',
  no_articles: 'The article list holds no article with a valid GTIN and a name',
};

/** Where in the file, and what the XML parser or the file system said. */
export interface CatalogFileWhere {
  line?: number;
  column?: number;
  message?: string;
}

/** An article list that cannot be imported; the catalogue in the store is left as it was. */
export class CatalogFileError extends ErxError {
  readonly reason: CatalogFileReason;

  constructor(reason: CatalogFileReason, where: CatalogFileWhere = {}) {
    const at = where.line === undefined ? '' : `line ${where.line}, column ${where.column ?? 0}`;
    const said = [at, where.message ?? ''].filter((part) => part !== '').join(': ');
    super('bad_request', said === '' ? `${MESSAGES[reason]}.` : `${MESSAGES[reason]} (${said}).`, {
      causeCode: `catalog_${reason}`,
      detail: where,
    });
    this.reason = reason;
  }
}
