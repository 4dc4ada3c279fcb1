/**
 * `erx catalog import FILE`: the catalogue replaced with Refdata's article list, in one transaction
 * once the whole file has been read. A file that cannot be read, is not an article list, or keeps
 * no article changes nothing.
 */
import type { CatalogStore } from '../store/catalog.js';
import type { ArticleListFormat } from './article-list-parser.js';
import type { SkipReason } from './catalog-article.js';
import { CatalogFileError } from './catalog-file-error.js';
import type { ArticleList } from './read-article-list.js';

/** What an import did. */
export interface CatalogImport {
  format: ArticleListFormat;
  /** Articles in the list. */
  read: number;
  /** Articles now in the catalogue. */
  imported: number;
  /** Articles of the list not imported, by reason. */
  skipped: Record<SkipReason, number>;
}

/**
 * Replaces the catalogue with the articles of `list` (read whole first, `./read-article-list.ts`).
 * A list that keeps no article changes nothing.
 */
export async function replaceCatalog(
  catalog: CatalogStore,
  list: ArticleList,
): Promise<CatalogImport> {
  // A list that keeps nothing is a wrong file or a failed export, never an empty catalogue wanted.
  if (list.rows.length === 0) throw new CatalogFileError('no_articles');
  const imported = await catalog.replace(list.rows);
  return { format: list.format, read: list.read, imported, skipped: list.skipped };
}

/** The one line `erx catalog import` prints. */
export function describeImport(result: CatalogImport): string {
  const { gtin, name, duplicate } = result.skipped;
  const why = `no valid GTIN: ${gtin}, no name: ${name}, repeated GTIN: ${duplicate}`;
  return `imported ${result.imported} of ${result.read} articles (${result.format}); skipped ${gtin + name + duplicate} (${why})`;
}
