/** Schema version 3: a prescription's signed terms (`../migrations.ts`; never edited after release). */
import type { Migration } from './migration.js';

/** See the file comment. */
export const V3: Migration = {
  // The signed terms of a prescription (SPEC.md §10): its expiry and the signature over the
  // copies the rules decide from. Nullable: rows written before it have none.
  version: 3,
  sqlite: `ALTER TABLE prescriptions ADD COLUMN terms TEXT;`,
  postgres: `ALTER TABLE prescriptions ADD COLUMN terms text;`,
};
