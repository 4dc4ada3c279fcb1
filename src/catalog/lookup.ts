/**
 * The catalogue's two reads, as the calls answer them: a name search (the desk's product field)
 * and the names of given GTINs (the counter and the patient view). No catalogue loaded, both
 * answer nothing, and the pages show GTINs as they did before.
 */
import type { CatalogArticle } from '../api/catalog.js';
import type { CatalogRow, CatalogStore } from '../store/catalog.js';
import { gtin13 } from './gtin.js';
import { foldForSearch } from './search-text.js';

/** The answer shape of a stored row. */
export function toCatalogArticle(row: CatalogRow): CatalogArticle {
  return {
    gtin: row.gtin,
    ...(row.pharmacode === undefined ? {} : { pharmacode: row.pharmacode }),
    name_de: row.nameDe,
    name_fr: row.nameFr,
  };
}

/**
 * At most `limit` articles whose German or French names contain every word of `query`, in any
 * order, case and accents ignored ("febridol 16" finds "FEBRIDOL Tabl 500 mg 16 Stk"); those whose
 * name starts with the first word first. A query that folds to fewer than 2 characters finds
 * nothing (it would match most of the catalogue).
 */
export async function searchCatalog(
  catalog: Pick<CatalogStore, 'search'>,
  query: string,
  limit: number,
): Promise<CatalogArticle[]> {
  const folded = foldForSearch(query);
  if (folded.length < 2) return [];
  // Each word once, so a repeated word costs nothing; the first stays first for the order.
  const words = [...new Set(folded.split(' '))];
  return (await catalog.search(words, limit)).map(toCatalogArticle);
}

/**
 * The articles of `ids` that the catalogue knows, in GTIN order. An id that is no GTIN-13 with a
 * valid check digit (nor 14 digits with a leading 0) names nothing; repeated ones are looked up once.
 */
export async function catalogNames(
  catalog: Pick<CatalogStore, 'byGtin'>,
  ids: readonly string[],
): Promise<CatalogArticle[]> {
  const gtins = new Set<string>();
  for (const id of ids) {
    const gtin = gtin13(id);
    if (gtin !== undefined) gtins.add(gtin);
  }
  if (gtins.size === 0) return [];
  return (await catalog.byGtin([...gtins])).map(toCatalogArticle);
}
