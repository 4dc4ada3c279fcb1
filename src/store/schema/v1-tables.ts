/** Schema version 1: the chains, idempotency, clients and tokens (`../migrations.ts`; never edited after release). */
import type { Migration } from './migration.js';

/** See the file comment. */
export const V1: Migration = {
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
};
