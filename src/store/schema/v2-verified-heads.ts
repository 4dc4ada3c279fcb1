/** Schema version 2: verified heads (`../migrations.ts`; never edited after release). */
import type { Migration } from './migration.js';

/** See the file comment. */
export const V2: Migration = {
  // Verified heads let a restart skip re-checking signatures. The event count was never read:
  // no longer written, and nullable so that older instances, which still write it, run beside
  // this schema during a rolling upgrade; a later version drops it.
  version: 2,
  sqlite: `
      ALTER TABLE prescriptions DROP COLUMN event_count;
      ALTER TABLE prescriptions ADD COLUMN event_count INTEGER;
      CREATE TABLE verified_heads (
        prescription_id TEXT NOT NULL PRIMARY KEY REFERENCES prescriptions (id),
        head_hash TEXT NOT NULL,
        seal TEXT NOT NULL
      ) WITHOUT ROWID;
    `,
  postgres: `
      ALTER TABLE prescriptions ALTER COLUMN event_count DROP NOT NULL;
      CREATE TABLE verified_heads (
        prescription_id text COLLATE "C" NOT NULL,
        head_hash text NOT NULL,
        seal text NOT NULL,
        CONSTRAINT verified_heads_pkey PRIMARY KEY (prescription_id),
        CONSTRAINT verified_heads_prescription_fkey FOREIGN KEY (prescription_id)
          REFERENCES prescriptions (id)
      );
    `,
};
