/** Schema version 8: the transparency log's leaves (`../migrations.ts`; never edited after release). */
import type { Migration } from './migration.js';

/** See the file comment. */
export const V8: Migration = {
  // What each leaf of the log holds, as it was when the log took it in (docs/transparency.md):
  // the chain's one-way name, the event's place in its chain, its hash and the chain's leaf
  // before it (`prev`), with the event's id and the feed position it was read at (growth reads
  // the feed after the last leaf's). Entry bundles are served from here, never from the events.
  // Leaves logged before this version hold the event hash alone: `chain` is NULL. Append-only.
  version: 8,
  sqlite: `
      CREATE TABLE log_leaves (
        idx INTEGER PRIMARY KEY,
        chain BLOB,
        place INTEGER NOT NULL,
        hash TEXT NOT NULL,
        prev INTEGER,
        event_id TEXT NOT NULL,
        feed_seq INTEGER NOT NULL
      ) STRICT;
      INSERT INTO log_leaves (idx, chain, place, hash, prev, event_id, feed_seq)
        SELECT feed_seq - 1, NULL, seq, hash, NULL, id, feed_seq FROM events
        WHERE feed_seq <= (SELECT coalesce(max(size), 0) FROM log_checkpoints);
      CREATE INDEX log_leaves_chain ON log_leaves (chain, idx) WHERE chain IS NOT NULL;
      CREATE INDEX log_leaves_event ON log_leaves (event_id);
      CREATE INDEX log_leaves_hash ON log_leaves (hash);
    `,
  postgres: `
      CREATE TABLE log_leaves (
        idx bigint PRIMARY KEY,
        chain bytea,
        place integer NOT NULL,
        hash text NOT NULL,
        prev bigint,
        event_id text NOT NULL,
        feed_seq bigint NOT NULL
      );
      INSERT INTO log_leaves (idx, chain, place, hash, prev, event_id, feed_seq)
        SELECT feed_seq - 1, NULL, seq, hash, NULL, id, feed_seq FROM events
        WHERE feed_seq <= (SELECT coalesce(max(size), 0) FROM log_checkpoints);
      CREATE INDEX log_leaves_chain ON log_leaves (chain, idx) WHERE chain IS NOT NULL;
      CREATE INDEX log_leaves_event ON log_leaves (event_id);
      CREATE INDEX log_leaves_hash ON log_leaves (hash);
    `,
};
