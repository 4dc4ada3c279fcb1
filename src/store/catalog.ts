/**
 * The product catalogue's part of the store (`Store.catalog`): public article data (GTIN,
 * Pharmacode, German and French names), no patient data. Replaced whole by `erx catalog import`.
 */

/** One article as stored. */
export interface CatalogRow {
  /** 13 digits with a valid GS1 check digit; the key. */
  gtin: string;
  /** 1 to 7 digits, when the list has one. */
  pharmacode: string | undefined;
  nameDe: string;
  nameFr: string;
  /** Both names folded for search (`catalog/search-text.ts`); searches match inside it. */
  search: string;
}

export interface CatalogStore {
  /**
   * Replaces every article with `rows` (unique GTINs) in one transaction: a failure leaves the
   * catalogue as it was. How many rows were written.
   */
  replace(rows: readonly CatalogRow[]): Promise<number>;
  /**
   * At most `limit` articles whose `search` contains every one of `words` (folded, in any
   * order): those whose text starts with the first word first, then in `search` order
   * (byte-wise), then by GTIN.
   */
  search(words: readonly string[], limit: number): Promise<CatalogRow[]>;
  /** The articles of these GTINs that the catalogue has, in GTIN order. */
  byGtin(gtins: readonly string[]): Promise<CatalogRow[]>;
  /** How many articles the catalogue holds (0 before any import). */
  count(): Promise<number>;
}
