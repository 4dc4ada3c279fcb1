/**
 * Direct access to the stored rows, bypassing erx, as someone with write access to the database
 * would have it: one small editor per engine over the same two tables (`src/store/migrations.ts`).
 * Column names come from closed unions, so interpolating them is safe; values are parameters.
 */
import Database from 'better-sqlite3';
import type pg from 'pg';

/** One `events` row as stored. */
export interface StoredEvent {
  prescription_id: string;
  seq: number;
  id: string;
  parent_hash: string | null;
  body: string;
  hash: string;
  signature: string;
}

export type EventColumn = keyof StoredEvent;
/** The copies of the signed body the feed's reads select by (migration 4). */
export type DerivedColumn = 'actor' | 'type' | 'cancels';
/** The columns of a remembered call (`Idempotency-Key`) that name what it answered. */
export type IdempotencyColumn = 'prescription_id' | 'event_id' | 'request_hash';
export type PrescriptionColumn =
  'issuer' | 'issuer_actor' | 'issued_at' | 'medicaments' | 'head_hash' | 'terms';
type Value = string | number | null;

const EVENT_COLUMNS: readonly EventColumn[] = [
  'prescription_id',
  'seq',
  'id',
  'parent_hash',
  'body',
  'hash',
  'signature',
];

/** What a tampering case may do to the store. */
export interface RowEditor {
  /** The events of a prescription in stored order. */
  events(prescriptionId: string): Promise<StoredEvent[]>;
  prescription(id: string): Promise<Record<PrescriptionColumn, string | number>>;
  setEvent(
    prescriptionId: string,
    seq: number,
    column: EventColumn | DerivedColumn,
    value: Value,
  ): Promise<void>;
  deleteEvent(prescriptionId: string, seq: number): Promise<void>;
  insertEvent(row: StoredEvent): Promise<void>;
  /**
   * Inserts `row` at feed position `feedSeq` under a prescription that need not exist (a ghost),
   * setting the foreign key aside as the database's owner can.
   */
  insertGhost(row: StoredEvent, feedSeq: number): Promise<void>;
  setPrescription(id: string, column: PrescriptionColumn, value: Value): Promise<void>;
  /** Edits the remembered call of `actor` under `key`. */
  setIdempotency(
    actor: string,
    key: string,
    column: IdempotencyColumn,
    value: Value,
  ): Promise<void>;
}

/** An editor over the SQLite file (a second connection beside the running service). */
export function sqliteRows(file: string): RowEditor & { close(): void } {
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  return {
    events: async (p) =>
      db
        .prepare('SELECT * FROM events WHERE prescription_id = ? ORDER BY seq')
        .all(p) as StoredEvent[],
    prescription: async (id) =>
      db.prepare('SELECT * FROM prescriptions WHERE id = ?').get(id) as Record<
        PrescriptionColumn,
        string | number
      >,
    setEvent: async (p, seq, column, value) => {
      db.prepare(`UPDATE events SET ${column} = ? WHERE prescription_id = ? AND seq = ?`).run(
        value,
        p,
        seq,
      );
    },
    deleteEvent: async (p, seq) => {
      db.prepare('DELETE FROM events WHERE prescription_id = ? AND seq = ?').run(p, seq);
    },
    insertEvent: async (row) => {
      db.prepare(
        `INSERT INTO events (${EVENT_COLUMNS.join(', ')}) VALUES (${EVENT_COLUMNS.map(() => '?').join(', ')})`,
      ).run(...EVENT_COLUMNS.map((c) => row[c]));
    },
    insertGhost: async (row, feedSeq) => {
      db.pragma('foreign_keys = OFF');
      try {
        db.prepare(
          `INSERT INTO events (${EVENT_COLUMNS.join(', ')}, feed_seq) VALUES (${EVENT_COLUMNS.map(() => '?').join(', ')}, ?)`,
        ).run(...EVENT_COLUMNS.map((c) => row[c]), feedSeq);
      } finally {
        db.pragma('foreign_keys = ON');
      }
    },
    setPrescription: async (id, column, value) => {
      db.prepare(`UPDATE prescriptions SET ${column} = ? WHERE id = ?`).run(value, id);
    },
    setIdempotency: async (actor, key, column, value) => {
      db.prepare(`UPDATE idempotency SET ${column} = ? WHERE actor = ? AND key = ?`).run(
        value,
        actor,
        key,
      );
    },
    close: () => db.close(),
  };
}

/** An editor over a PostgreSQL connection. */
export function postgresRows(client: pg.Client): RowEditor {
  return {
    events: async (p) =>
      (
        await client.query<StoredEvent>(
          'SELECT * FROM events WHERE prescription_id = $1 ORDER BY seq',
          [p],
        )
      ).rows,
    prescription: async (id) =>
      (
        await client.query<Record<PrescriptionColumn, string | number>>(
          'SELECT * FROM prescriptions WHERE id = $1',
          [id],
        )
      ).rows[0]!,
    setEvent: async (p, seq, column, value) => {
      await client.query(
        `UPDATE events SET ${column} = $1 WHERE prescription_id = $2 AND seq = $3`,
        [value, p, seq],
      );
    },
    deleteEvent: async (p, seq) => {
      await client.query('DELETE FROM events WHERE prescription_id = $1 AND seq = $2', [p, seq]);
    },
    insertEvent: async (row) => {
      await client.query(
        `INSERT INTO events (${EVENT_COLUMNS.join(', ')}) VALUES (${EVENT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')})`,
        EVENT_COLUMNS.map((c) => row[c]),
      );
    },
    insertGhost: async (row, feedSeq) => {
      // Replica mode skips the foreign key's triggers (the test database's user is its owner).
      await client.query('SET session_replication_role = replica');
      try {
        await client.query(
          `INSERT INTO events (${EVENT_COLUMNS.join(', ')}, feed_seq) VALUES (${EVENT_COLUMNS.map((_, i) => `$${i + 1}`).join(', ')}, $${EVENT_COLUMNS.length + 1})`,
          [...EVENT_COLUMNS.map((c) => row[c]), feedSeq],
        );
      } finally {
        await client.query('SET session_replication_role = DEFAULT');
      }
    },
    setPrescription: async (id, column, value) => {
      await client.query(`UPDATE prescriptions SET ${column} = $1 WHERE id = $2`, [value, id]);
    },
    setIdempotency: async (actor, key, column, value) => {
      await client.query(`UPDATE idempotency SET ${column} = $1 WHERE actor = $2 AND key = $3`, [
        value,
        actor,
        key,
      ]);
    },
  };
}
