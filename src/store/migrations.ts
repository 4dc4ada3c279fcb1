/**
 * The versioned schema of both engines, side by side: each entry is one schema change written once
 * for SQLite and once for PostgreSQL, so the two can never drift apart in version (STYLE.md point 5).
 * An entry is applied once, in order, and recorded in `schema_migrations`; entries are never edited
 * after release, only appended.
 *
 * Both engines keep the same tables, columns and constraints (SPEC.md §7): event bodies are `TEXT`
 * (the exact signed bytes, never a JSON column), `(prescription_id, seq)` is the primary key and
 * `(prescription_id, parent_hash)` is unique, so a chain cannot fork even if a lock is bypassed.
 */

/** One schema change, expressed for each engine. */
export interface Migration {
  readonly version: number;
  readonly sqlite: string;
  readonly postgres: string;
}

/** Every migration, in version order. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    sqlite: `
      CREATE TABLE prescriptions (
        id TEXT PRIMARY KEY,
        issuer TEXT NOT NULL,
        issuer_actor TEXT NOT NULL,
        issued_at INTEGER NOT NULL,
        medicaments TEXT NOT NULL,
        head_hash TEXT NOT NULL,
        event_count INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE events (
        prescription_id TEXT NOT NULL REFERENCES prescriptions(id),
        seq INTEGER NOT NULL,
        id TEXT NOT NULL UNIQUE,
        parent_hash TEXT,
        body TEXT NOT NULL,
        hash TEXT NOT NULL,
        signature TEXT NOT NULL,
        PRIMARY KEY (prescription_id, seq),
        UNIQUE (prescription_id, parent_hash)
      ) STRICT;
      CREATE TABLE idempotency (
        actor TEXT NOT NULL,
        key TEXT NOT NULL,
        request_hash TEXT NOT NULL,
        prescription_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        answer TEXT,
        created_at INTEGER NOT NULL,
        PRIMARY KEY (actor, key)
      ) STRICT;
      CREATE INDEX idempotency_created ON idempotency(created_at);
      CREATE TABLE clients (
        client_id TEXT PRIMARY KEY,
        secret_hash TEXT NOT NULL,
        role TEXT NOT NULL CHECK (role IN ('prescriber', 'pharmacist')),
        name TEXT NOT NULL,
        description TEXT NOT NULL,
        sub TEXT NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE tokens (
        token_hash TEXT PRIMARY KEY,
        client_id TEXT NOT NULL REFERENCES clients(client_id) ON DELETE CASCADE,
        expires_at INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX tokens_expires ON tokens(expires_at);
    `,
    // Constraint names are spelled out: the store maps unique violations by name (SQLSTATE 23505).
    // Keys that are ordered or paged on are COLLATE "C" so PostgreSQL orders them byte-wise, as
    // SQLite does; unix times are bigint (seconds past 2038, milliseconds).
    postgres: `
      CREATE TABLE prescriptions (
        id text COLLATE "C" NOT NULL,
        issuer text NOT NULL,
        issuer_actor text NOT NULL,
        issued_at bigint NOT NULL,
        medicaments text NOT NULL,
        head_hash text NOT NULL,
        event_count integer NOT NULL,
        CONSTRAINT prescriptions_pkey PRIMARY KEY (id)
      );
      CREATE TABLE events (
        prescription_id text COLLATE "C" NOT NULL,
        seq integer NOT NULL,
        id text NOT NULL,
        parent_hash text,
        body text NOT NULL,
        hash text NOT NULL,
        signature text NOT NULL,
        CONSTRAINT events_pkey PRIMARY KEY (prescription_id, seq),
        CONSTRAINT events_id_key UNIQUE (id),
        CONSTRAINT events_parent_key UNIQUE (prescription_id, parent_hash),
        CONSTRAINT events_prescription_fkey FOREIGN KEY (prescription_id)
          REFERENCES prescriptions (id)
      );
      CREATE TABLE idempotency (
        actor text NOT NULL,
        key text NOT NULL,
        request_hash text NOT NULL,
        prescription_id text NOT NULL,
        event_id text NOT NULL,
        answer text,
        created_at bigint NOT NULL,
        CONSTRAINT idempotency_pkey PRIMARY KEY (actor, key)
      );
      CREATE INDEX idempotency_created ON idempotency (created_at);
      CREATE TABLE clients (
        client_id text COLLATE "C" NOT NULL,
        secret_hash text NOT NULL,
        role text NOT NULL CHECK (role IN ('prescriber', 'pharmacist')),
        name text NOT NULL,
        description text NOT NULL,
        sub text NOT NULL,
        created_at bigint NOT NULL,
        CONSTRAINT clients_pkey PRIMARY KEY (client_id)
      );
      CREATE TABLE tokens (
        token_hash text NOT NULL,
        client_id text COLLATE "C" NOT NULL,
        expires_at bigint NOT NULL,
        created_at bigint NOT NULL,
        CONSTRAINT tokens_pkey PRIMARY KEY (token_hash),
        CONSTRAINT tokens_client_fkey FOREIGN KEY (client_id)
          REFERENCES clients (client_id) ON DELETE CASCADE
      );
      CREATE INDEX tokens_expires ON tokens (expires_at);
      -- PostgreSQL does not index a referencing column by itself; the cascade on client removal
      -- would otherwise scan every token.
      CREATE INDEX tokens_client ON tokens (client_id);
    `,
  },
  {
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
  },
  {
    // The signed terms of a prescription (SPEC.md §10): its expiry and the signature over the
    // copies the rules decide from. Nullable: rows written before it have none.
    version: 3,
    sqlite: `ALTER TABLE prescriptions ADD COLUMN terms TEXT;`,
    postgres: `ALTER TABLE prescriptions ADD COLUMN terms text;`,
  },
  {
    // The event feed: each event's place in commit order (`feed_seq`, 1, 2, 3, … without gaps)
    // and what the feed's visibility is decided from, copied out of the signed body when the event
    // is numbered (`actor`, `type`, and for a cancel the `event_data.EventId` it `cancels`). All
    // nullable, so that older instances, which insert events without them, run beside this schema:
    // SQLite numbers their rows by the trigger, PostgreSQL numbers every row after its commit
    // (`Store.sequenceFeed`). Existing rows are numbered here, each chain in its order. A body that
    // is not JSON (edited) is numbered with none of the copies: only its issuer sees it. No index
    // leads with `actor`: whether a pharmacist acted earlier on a prescription is read along its
    // chain (the primary key), and such an index would cost every append a random insert.
    version: 4,
    sqlite: `
      ALTER TABLE events ADD COLUMN feed_seq INTEGER;
      ALTER TABLE events ADD COLUMN actor TEXT;
      ALTER TABLE events ADD COLUMN type TEXT;
      ALTER TABLE events ADD COLUMN cancels TEXT;
      UPDATE events SET
        feed_seq = numbered.n,
        actor = CASE WHEN json_valid(body) THEN json_extract(body, '$.actor') END,
        type = CASE WHEN json_valid(body) THEN json_extract(body, '$.type') END,
        cancels = CASE WHEN json_valid(body) AND json_extract(body, '$.type') = 'cancel'
          THEN json_extract(body, '$.event_data.EventId') END
      FROM (SELECT rowid AS r, row_number() OVER (ORDER BY prescription_id, seq) AS n FROM events)
        AS numbered
      WHERE events.rowid = numbered.r;
      CREATE UNIQUE INDEX events_feed_seq ON events (feed_seq);
      CREATE INDEX events_cancels ON events (cancels) WHERE cancels IS NOT NULL;
      CREATE INDEX prescriptions_issuer ON prescriptions (issuer_actor, id);
      CREATE TRIGGER events_number_older AFTER INSERT ON events WHEN NEW.feed_seq IS NULL
      BEGIN
        UPDATE events SET
          feed_seq = (SELECT coalesce(max(feed_seq), 0) + 1 FROM events),
          actor = CASE WHEN json_valid(NEW.body) THEN json_extract(NEW.body, '$.actor') END,
          type = CASE WHEN json_valid(NEW.body) THEN json_extract(NEW.body, '$.type') END,
          cancels = CASE WHEN json_valid(NEW.body) AND json_extract(NEW.body, '$.type') = 'cancel'
            THEN json_extract(NEW.body, '$.event_data.EventId') END
        WHERE rowid = NEW.rowid;
      END;
    `,
    // erx_event_facts reads the copies out of a body, and none out of one that is not JSON
    // rather than failing the whole numbering.
    postgres: `
      ALTER TABLE events
        ADD COLUMN feed_seq bigint,
        ADD COLUMN actor text,
        ADD COLUMN type text,
        ADD COLUMN cancels text;
      CREATE FUNCTION erx_event_facts(body text, OUT actor text, OUT type text, OUT cancels text)
      LANGUAGE plpgsql IMMUTABLE AS $facts$
      BEGIN
        SELECT b ->> 'actor', b ->> 'type',
          CASE WHEN b ->> 'type' = 'cancel' THEN b -> 'event_data' ->> 'EventId' END
        INTO actor, type, cancels
        FROM (SELECT body::json AS b) AS parsed;
      EXCEPTION WHEN others THEN
        actor := NULL;
        type := NULL;
        cancels := NULL;
      END
      $facts$;
      UPDATE events e SET
        feed_seq = numbered.n, actor = numbered.actor, type = numbered.type,
        cancels = numbered.cancels
      FROM (
        SELECT ev.prescription_id, ev.seq, f.actor, f.type, f.cancels,
          row_number() OVER (ORDER BY ev.prescription_id, ev.seq) AS n
        FROM events ev, LATERAL erx_event_facts(ev.body) f
      ) AS numbered
      WHERE e.prescription_id = numbered.prescription_id AND e.seq = numbered.seq;
      ALTER TABLE events ADD CONSTRAINT events_feed_seq_key UNIQUE (feed_seq);
      CREATE INDEX events_cancels ON events (cancels) WHERE cancels IS NOT NULL;
      CREATE INDEX prescriptions_issuer ON prescriptions (issuer_actor, id);
    `,
  },
  {
    // A prescriber's profile (name, GLN, ZSR, practice address) for the desk to prefill, as the
    // text src/auth/prescriber-profile.ts writes. Nullable: most clients have none. Kept out of
    // the secret hash's binding, so setting it never invalidates a secret.
    version: 5,
    sqlite: `ALTER TABLE clients ADD COLUMN profile TEXT;`,
    postgres: `ALTER TABLE clients ADD COLUMN profile text;`,
  },
  {
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
  },
  {
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
  },
];

/** The schema version this code expects: the last migration's. */
export const LATEST_SCHEMA_VERSION: number = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);
