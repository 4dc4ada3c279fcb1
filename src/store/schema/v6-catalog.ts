/** Schema version 6: the product catalogue (`../migrations.ts`; never edited after release). */
import type { Migration } from './migration.js';

/** See the file comment. */
export const V6: Migration = {
  // The product catalogue (`erx catalog import`): public article data, GTIN to names, no
  // patient data. `search` holds both names folded (catalog/search-text.ts) and is matched by
  // substring, so no index serves it; ordered byte-wise (COLLATE "C") as on SQLite.
  version: 6,
  sqlite: `
      CREATE TABLE catalog (
        gtin TEXT NOT NULL PRIMARY KEY,
        pharmacode TEXT,
        name_de TEXT NOT NULL,
        name_fr TEXT NOT NULL,
        search TEXT NOT NULL
      ) STRICT, WITHOUT ROWID;
    `,
  postgres: `
      CREATE TABLE catalog (
        gtin text COLLATE "C" NOT NULL,
        pharmacode text,
        name_de text NOT NULL,
        name_fr text NOT NULL,
        search text COLLATE "C" NOT NULL,
        CONSTRAINT catalog_pkey PRIMARY KEY (gtin)
      );
    `,
};
