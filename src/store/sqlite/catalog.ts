/**
 * The product catalogue on SQLite (`Store.catalog`, migration 6). A replacement deletes every
 * article and inserts the new ones in one write of the group commit (one transaction, one
 * fsync), so a reader sees the old catalogue or the new one, never a mix.
 */
import type Database from 'better-sqlite3';
import type { CatalogRow, CatalogStore } from '../catalog.js';
import type { GroupCommit } from './group-commit.js';

/** A catalogue row as SQLite returns it. */
interface CatalogRecord {
  gtin: string;
  pharmacode: string | null;
  name_de: string;
  name_fr: string;
  search: string;
}

const COLUMNS = 'gtin, pharmacode, name_de, name_fr, search';

/** The catalogue's SQL on SQLite. */
export const SQLITE_CATALOG_SQL = {
  clear: 'DELETE FROM catalog',
  insert: `INSERT INTO catalog (${COLUMNS}) VALUES (@gtin, @pharmacode, @name_de, @name_fr, @search)`,
  // instr, not LIKE: a word needs no escaping and matches the folded text byte for byte. Every
  // word of the JSON array @words must occur; names that start with the first word come first.
  search: `SELECT ${COLUMNS} FROM catalog
    WHERE NOT EXISTS (SELECT 1 FROM json_each(@words) WHERE instr(search, value) = 0)
    ORDER BY instr(search, @first) = 1 DESC, search, gtin LIMIT @limit`,
  byGtin: `SELECT ${COLUMNS} FROM catalog WHERE gtin IN (SELECT value FROM json_each(?))
    ORDER BY gtin`,
  count: 'SELECT count(*) AS n FROM catalog',
} as const;

function toRow(r: CatalogRecord): CatalogRow {
  return {
    gtin: r.gtin,
    pharmacode: r.pharmacode ?? undefined,
    nameDe: r.name_de,
    nameFr: r.name_fr,
    search: r.search,
  };
}

/** The catalogue's statements over one connection (the schema must be migrated). */
export class SqliteCatalog implements CatalogStore {
  readonly #commits: GroupCommit;
  readonly #clear: Database.Statement<[]>;
  readonly #insert: Database.Statement<[CatalogRecord]>;
  readonly #search: Database.Statement<
    [{ words: string; first: string; limit: number }],
    CatalogRecord
  >;
  readonly #byGtin: Database.Statement<[string], CatalogRecord>;
  readonly #count: Database.Statement<[], { n: number }>;

  constructor(db: Database.Database, commits: GroupCommit) {
    this.#commits = commits;
    this.#clear = db.prepare(SQLITE_CATALOG_SQL.clear);
    this.#insert = db.prepare(SQLITE_CATALOG_SQL.insert);
    this.#search = db.prepare(SQLITE_CATALOG_SQL.search);
    this.#byGtin = db.prepare(SQLITE_CATALOG_SQL.byGtin);
    this.#count = db.prepare(SQLITE_CATALOG_SQL.count);
  }

  async replace(rows: readonly CatalogRow[]): Promise<number> {
    return this.#commits.run(() => {
      this.#clear.run();
      for (const row of rows) {
        this.#insert.run({
          gtin: row.gtin,
          pharmacode: row.pharmacode ?? null,
          name_de: row.nameDe,
          name_fr: row.nameFr,
          search: row.search,
        });
      }
      return rows.length;
    });
  }

  async search(words: readonly string[], limit: number): Promise<CatalogRow[]> {
    const first = words[0] ?? '';
    return this.#search.all({ words: JSON.stringify(words), first, limit }).map(toRow);
  }

  async byGtin(gtins: readonly string[]): Promise<CatalogRow[]> {
    if (gtins.length === 0) return [];
    return this.#byGtin.all(JSON.stringify(gtins)).map(toRow);
  }

  async count(): Promise<number> {
    return this.#count.get()?.n ?? 0;
  }
}
