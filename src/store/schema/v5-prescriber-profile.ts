/** Schema version 5: a prescriber's profile (`../migrations.ts`; never edited after release). */
import type { Migration } from './migration.js';

/** See the file comment. */
export const V5: Migration = {
  // A prescriber's profile (name, GLN, ZSR, practice address) for the desk to prefill, as the
  // text src/auth/prescriber-profile.ts writes. Nullable: most clients have none. Kept out of
  // the secret hash's binding, so setting it never invalidates a secret.
  version: 5,
  sqlite: `ALTER TABLE clients ADD COLUMN profile TEXT;`,
  postgres: `ALTER TABLE clients ADD COLUMN profile text;`,
};
