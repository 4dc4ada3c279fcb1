/**
 * The product catalogue's calls: a name search for the desk's product field
 * (`GET /ePrescription/catalog`) and the names of given GTINs for the counter and the patient view
 * (`GET /ePrescription/catalog/names`). Public article data (Refdata's article list, loaded with
 * `erx catalog import`); both answer `[]` while no catalogue is loaded.
 */
import Type from 'typebox';
import type { Static } from 'typebox';
import { PLAIN_TEXT_PATTERN } from './params.js';
import { onTheWire } from './wire.js';

/** The smallest, default and largest number of search answers. */
export const CATALOG_LIMIT = { min: 1, default: 10, max: 50 } as const;

/** The shortest and longest search text. */
export const CATALOG_QUERY_LENGTH = { min: 2, max: 60 } as const;

/** Most GTINs one names lookup takes (a prescription's medicaments, with room). */
export const CATALOG_GTINS_MAX = 50;

/** The query of the name search. */
export const CatalogSearchQuery = Type.Object(
  {
    q: Type.String({
      minLength: CATALOG_QUERY_LENGTH.min,
      maxLength: CATALOG_QUERY_LENGTH.max,
      pattern: PLAIN_TEXT_PATTERN,
      description:
        'Text found anywhere in the German or French name, case and accents ignored ' +
        '(`dafal` finds `DAFALGAN`, `creme` finds `crème`). Names that start with it come first.',
    }),
    limit: Type.Optional(
      onTheWire(
        Type.String({
          pattern: '^(50|[1-4][0-9]|[1-9])$',
          description: `At most this many articles, ${CATALOG_LIMIT.min} to ${CATALOG_LIMIT.max} (default ${CATALOG_LIMIT.default}).`,
        }),
        { type: 'integer', minimum: CATALOG_LIMIT.min, maximum: CATALOG_LIMIT.max },
      ),
    ),
  },
  { additionalProperties: false },
);
export type CatalogSearchQuery = Static<typeof CatalogSearchQuery>;

const gtin = Type.String({
  pattern: '^[0-9]{8,14}$',
  description: 'A GTIN as a medicament `Id` of `IdType` 2 has it.',
});

/** The query of the names lookup: one `gtin` parameter per GTIN. */
export const CatalogNamesQuery = Type.Object(
  {
    gtin: onTheWire(
      Type.Union([gtin, Type.Array(gtin, { minItems: 1, maxItems: CATALOG_GTINS_MAX })], {
        description: `The GTINs to name, one parameter each (\`gtin=…&gtin=…\`), at most ${CATALOG_GTINS_MAX}.`,
      }),
      { type: 'array', items: gtin, minItems: 1, maxItems: CATALOG_GTINS_MAX },
    ),
  },
  { additionalProperties: false },
);
export type CatalogNamesQuery = Static<typeof CatalogNamesQuery>;

/** One article of the catalogue. */
export const CatalogArticle = Type.Object(
  {
    gtin: Type.String({ description: 'GTIN-13, check digit verified at import.' }),
    pharmacode: Type.Optional(
      Type.String({ description: 'The Pharmacode, when the imported list has one.' }),
    ),
    name_de: Type.String({ description: 'German name (the French one where the list has none).' }),
    name_fr: Type.String({ description: 'French name (the German one where the list has none).' }),
  },
  {
    $id: 'CatalogArticle',
    additionalProperties: false,
    description: 'A product of the public article list: its GTIN and names.',
  },
);
export type CatalogArticle = Static<typeof CatalogArticle>;

/** The answer of both catalogue calls. */
export const CatalogArticles = Type.Array(CatalogArticle, {
  $id: 'CatalogArticles',
  description: 'The articles found; `[]` when none is, or no catalogue is loaded.',
});
export type CatalogArticles = Static<typeof CatalogArticles>;
