/**
 * The product catalogue on PostgreSQL (`Store.catalog`, migration 6). A replacement deletes every
 * article and inserts the new ones in batches, all in one transaction: readers on other instances
 * see the old catalogue until it commits (DELETE, not TRUNCATE, which would block them meanwhile).
 */
import type pg from 'pg';
import type { CatalogRow, CatalogStore } from '../catalog.js';
import { isUnavailable, unavailable } from './errors.js';
import { withClient, withTransaction } from './pool.js';

/** Rows per INSERT: each statement stays far inside the statement timeout. */
export const CATALOG_BATCH = 5_000;

/** A catalogue row as PostgreSQL returns it. */
interface CatalogRecord {
  gtin: string;
  pharmacode: string | null;
  name_de: string;
  name_fr: string;
  search: string;
}

const COLUMNS = 'gtin, pharmacode, name_de, name_fr, search';

/** The catalogue's SQL on PostgreSQL. */
export const POSTGRES_CATALOG_SQL = {
  clear: 'DELETE FROM catalog',
  insert: `INSERT INTO catalog (${COLUMNS})
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[])`,
  // strpos, not LIKE: a word needs no escaping and matches the folded text byte for byte. Every
  // word of $1 must occur; names that start with the first word come first.
  search: `SELECT ${COLUMNS} FROM catalog
    WHERE NOT EXISTS (SELECT 1 FROM unnest($1::text[]) AS w(word) WHERE strpos(search, w.word) = 0)
    ORDER BY strpos(search, ($1::text[])[1]) = 1 DESC, search, gtin LIMIT $2`,
  byGtin: `SELECT ${COLUMNS} FROM catalog WHERE gtin = ANY($1::text[]) ORDER BY gtin`,
  count: 'SELECT count(*)::int AS n FROM catalog',
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

/** The catalogue over the store's pool. */
export class PostgresCatalog implements CatalogStore {
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  /** Runs `fn`, turning "the database cannot answer" into `service_unavailable` (SPEC.md §8). */
  async #guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (error) {
      if (isUnavailable(error)) throw unavailable(error);
      throw error;
    }
  }

  #query(text: string, values: unknown[]): Promise<CatalogRecord[]> {
    return this.#guard(async () => {
      const result = await withClient(this.#pool, (client) =>
        client.query<CatalogRecord>(text, values),
      );
      return result.rows;
    });
  }

  async replace(rows: readonly CatalogRow[]): Promise<number> {
    return this.#guard(() =>
      withTransaction(this.#pool, async (client) => {
        await client.query(POSTGRES_CATALOG_SQL.clear);
        for (let start = 0; start < rows.length; start += CATALOG_BATCH) {
          const batch = rows.slice(start, start + CATALOG_BATCH);
          await client.query(POSTGRES_CATALOG_SQL.insert, [
            batch.map((r) => r.gtin),
            batch.map((r) => r.pharmacode ?? null),
            batch.map((r) => r.nameDe),
            batch.map((r) => r.nameFr),
            batch.map((r) => r.search),
          ]);
        }
        return rows.length;
      }),
    );
  }

  async search(words: readonly string[], limit: number): Promise<CatalogRow[]> {
    return (await this.#query(POSTGRES_CATALOG_SQL.search, [words, limit])).map(toRow);
  }

  async byGtin(gtins: readonly string[]): Promise<CatalogRow[]> {
    if (gtins.length === 0) return [];
    return (await this.#query(POSTGRES_CATALOG_SQL.byGtin, [gtins])).map(toRow);
  }

  async count(): Promise<number> {
    const [row] = (
      await this.#guard(async () =>
        withClient(this.#pool, (client) => client.query<{ n: number }>(POSTGRES_CATALOG_SQL.count)),
      )
    ).rows;
    return row?.n ?? 0;
  }
}
