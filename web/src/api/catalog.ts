/**
 * The product catalogue's calls (`GET /ePrescription/catalog`, `/catalog/names`): names for the
 * desk's product field, and for the GTINs the counter and the patient view show.
 */
import { callJson } from './http.js';
import type { Token } from './http.js';
import type { CatalogArticle } from './types.js';

/** How many products the desk's search lists. */
const SEARCH_LIMIT = 8;

/** Products whose name contains `query` (case and accents ignored), for a signed-in client. */
export function searchProducts(query: string, token: Token): Promise<CatalogArticle[]> {
  const params = new URLSearchParams({ q: query, limit: String(SEARCH_LIMIT) });
  return callJson(`/ePrescription/catalog?${params.toString()}`, { method: 'GET', token });
}

/**
 * The catalogue's articles for `gtins` (anyone: the patient view has no token). Only GTINs the
 * link already carries are sent; no answer, or no catalogue, is an empty list.
 */
export function productNames(gtins: readonly string[]): Promise<CatalogArticle[]> {
  const params = new URLSearchParams(gtins.map((gtin) => ['gtin', gtin]));
  return callJson(`/ePrescription/catalog/names?${params.toString()}`, { method: 'GET' });
}
