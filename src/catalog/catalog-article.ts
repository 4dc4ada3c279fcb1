/**
 * What is kept of an article as the list has it: a GTIN-13 with a valid check digit, the
 * Pharmacode when the list has a well-formed one, and a German and a French name. An article
 * whose GTIN is missing or wrong, or that has no name, is skipped and counted.
 */
import type { CatalogRow } from '../store/catalog.js';
import type { RawArticle } from './article-list-parser.js';
import { gtin13, isPharmacode } from './gtin.js';
import { searchText, tidyName } from './search-text.js';

/** Longest name kept (the lists' names are at most 80 characters); a longer one is refused. */
export const MAX_NAME_LENGTH = 200;

/** Why an article of the list is not in the catalogue. */
export type SkipReason =
  /** No GTIN, or not 13 digits (14 with a leading 0) with a valid GS1 check digit. */
  | 'gtin'
  /** Neither a German nor a French name, or one longer than {@link MAX_NAME_LENGTH}. */
  | 'name'
  /** Its GTIN was already read earlier in the list (the first one is kept). */
  | 'duplicate';

function nameOf(text: string): string | undefined | 'too_long' {
  const name = tidyName(text);
  if (name === '') return undefined;
  return name.length > MAX_NAME_LENGTH ? 'too_long' : name;
}

/**
 * The stored row of `raw`, or why it is skipped (never `duplicate`: that takes the whole list).
 * A name missing in one language is the other's: a name in the other language tells the counter
 * more than the bare GTIN.
 */
export function toCatalogRow(raw: RawArticle): CatalogRow | Exclude<SkipReason, 'duplicate'> {
  const gtin = gtin13(raw.gtin.trim());
  if (gtin === undefined) return 'gtin';
  const de = nameOf(raw.nameDe);
  const fr = nameOf(raw.nameFr);
  if (de === 'too_long' || fr === 'too_long') return 'name';
  const nameDe = de ?? fr;
  const nameFr = fr ?? de;
  if (nameDe === undefined || nameFr === undefined) return 'name';
  const pharmacode = raw.pharmacode.trim();
  return {
    gtin,
    pharmacode: isPharmacode(pharmacode) ? pharmacode : undefined,
    nameDe,
    nameFr,
    search: searchText(nameDe, nameFr),
  };
}
