/** Schema version 7: the transparency log (`../migrations.ts`; never edited after release). */
import type { Migration } from './migration.js';

/** See the file comment. */
export const V7: Migration = {
  // The transparency log (docs/transparency.md): the Merkle tree over the events' hashes, leaf i
  // the event at feed position i + 1. `log_hashes` keeps the tree's hashes at their stored-hash
  // index (leaves and completed subtrees, about two per leaf, as Go's sumdb/tlog stores them);
  // `log_checkpoints` every signed checkpoint by tree size; `log_cosignatures` the witnesses'
  // cosignature lines on a checkpoint. Append-only: nothing here is ever updated.
  version: 7,
  sqlite: `
      CREATE TABLE log_hashes (idx INTEGER PRIMARY KEY, hash BLOB NOT NULL) STRICT;
      CREATE TABLE log_checkpoints (
        size INTEGER PRIMARY KEY,
        root BLOB NOT NULL,
        note TEXT NOT NULL,
        signed_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE log_cosignatures (
        size INTEGER NOT NULL REFERENCES log_checkpoints(size),
        witness TEXT NOT NULL,
        line TEXT NOT NULL,
        PRIMARY KEY (size, witness)
      ) STRICT;
    `,
  postgres: `
      CREATE TABLE log_hashes (idx bigint PRIMARY KEY, hash bytea NOT NULL);
      CREATE TABLE log_checkpoints (
        size bigint PRIMARY KEY,
        root bytea NOT NULL,
        note text NOT NULL,
        signed_at bigint NOT NULL
      );
      CREATE TABLE log_cosignatures (
        size bigint NOT NULL REFERENCES log_checkpoints(size),
        witness text NOT NULL,
        line text NOT NULL,
        PRIMARY KEY (size, witness)
      );
    `,
};
