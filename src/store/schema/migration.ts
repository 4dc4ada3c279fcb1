/** The shape of one versioned schema change (`../migrations.ts`). */

/** One schema change, expressed for each engine. */
export interface Migration {
  readonly version: number;
  readonly sqlite: string;
  readonly postgres: string;
}
