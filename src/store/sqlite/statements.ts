/** The prepared statements of the SQLite store, over the tables of `../migrations.ts`. */
import type Database from 'better-sqlite3';
import type {
  ClientRecord,
  EventRecord,
  IdempotencyRecord,
  PrescriptionRecord,
  TokenRecord,
  VerifiedHeadRecord,
} from '../records.js';
import type { EventRow, IdempotencyRow, VerifiedHeadRow } from '../types.js';

/** Prepares every statement the SQLite store runs (the schema must be migrated). */
export function prepareStatements(db: Database.Database) {
  return {
    /** Changes when another connection commits (https://sqlite.org/pragma.html#pragma_data_version). */
    dataVersion: db.prepare<[], { data_version: number }>('PRAGMA data_version'),
    getPrescription: db.prepare<[string], PrescriptionRecord>(
      'SELECT * FROM prescriptions WHERE id = ?',
    ),
    getEvents: db.prepare<[string], EventRecord>(
      'SELECT * FROM events WHERE prescription_id = ? ORDER BY seq',
    ),
    getEvent: db.prepare<[string], EventRecord>('SELECT * FROM events WHERE id = ?'),
    insertPrescription: db.prepare(
      `INSERT INTO prescriptions (id, issuer, issuer_actor, issued_at, medicaments, head_hash, terms)
       VALUES (@id, @issuer, @issuer_actor, @issued_at, @medicaments, @head_hash, @terms)`,
    ),
    /**
     * Inserts an event at the next feed position (`./feed.ts`): one index probe for the highest,
     * inside the write transaction, so positions follow commit order without gaps. A position the
     * log has read is never given again, even if its event is gone (the log's last leaf's). The
     * copies the feed decides from are read out of the body as migration 4 reads them.
     */
    insertEvent: db.prepare(
      `INSERT INTO events (prescription_id, seq, id, parent_hash, body, hash, signature,
         feed_seq, actor, type, cancels)
       VALUES (@prescription_id, @seq, @id, @parent_hash, @body, @hash, @signature,
         max(coalesce((SELECT max(feed_seq) FROM events), 0),
           coalesce((SELECT feed_seq FROM log_leaves
             WHERE idx = (SELECT max(idx) FROM log_leaves)), 0)) + 1,
         CASE WHEN json_valid(@body) THEN json_extract(@body, '$.actor') END,
         CASE WHEN json_valid(@body) THEN json_extract(@body, '$.type') END,
         CASE WHEN json_valid(@body) AND json_extract(@body, '$.type') = 'cancel'
           THEN json_extract(@body, '$.event_data.EventId') END)`,
    ),
    addTerms: db.prepare('UPDATE prescriptions SET terms = ? WHERE id = ? AND terms IS NULL'),
    moveHead: db.prepare(
      `UPDATE prescriptions SET head_hash = @head_hash WHERE id = @id AND head_hash = @expected`,
    ),
    getVerifiedHead: db.prepare<[string], VerifiedHeadRecord>(
      'SELECT * FROM verified_heads WHERE prescription_id = ?',
    ),
    putVerifiedHead: db.prepare(
      `INSERT INTO verified_heads (prescription_id, head_hash, seal) VALUES (@prescription_id, @head_hash, @seal)
       ON CONFLICT (prescription_id) DO UPDATE SET head_hash = excluded.head_hash, seal = excluded.seal`,
    ),
    insertIdempotency: db.prepare(
      `INSERT INTO idempotency (actor, key, request_hash, prescription_id, event_id, answer, created_at)
       VALUES (@actor, @key, @request_hash, @prescription_id, @event_id, @answer, @created_at)`,
    ),
    getIdempotency: db.prepare<[string, string], IdempotencyRecord>(
      'SELECT * FROM idempotency WHERE actor = ? AND key = ?',
    ),
    purgeIdempotency: db.prepare('DELETE FROM idempotency WHERE created_at < ?'),
    listIds: db.prepare<[string, number], { id: string }>(
      'SELECT id FROM prescriptions WHERE id > ? ORDER BY id LIMIT ?',
    ),
    count: db.prepare<[], { n: number }>('SELECT count(*) AS n FROM prescriptions'),
    addClient: db.prepare(
      `INSERT INTO clients (client_id, secret_hash, role, name, description, sub, created_at,
         profile)
       VALUES (@clientId, @secretHash, @role, @name, @description, @sub, @createdAt, @profile)`,
    ),
    getClient: db.prepare<[string], ClientRecord>('SELECT * FROM clients WHERE client_id = ?'),
    listClients: db.prepare<[], ClientRecord>('SELECT * FROM clients ORDER BY client_id'),
    removeClient: db.prepare('DELETE FROM clients WHERE client_id = ?'),
    setProfile: db.prepare('UPDATE clients SET profile = ? WHERE client_id = ?'),
    replaceClientSecretHash: db.prepare(
      'UPDATE clients SET secret_hash = ? WHERE client_id = ? AND secret_hash = ?',
    ),
    insertToken: db.prepare(
      `INSERT INTO tokens (token_hash, client_id, expires_at, created_at)
       VALUES (@tokenHash, @clientId, @expiresAt, @createdAt)`,
    ),
    getToken: db.prepare<[string], TokenRecord>('SELECT * FROM tokens WHERE token_hash = ?'),
    purgeTokens: db.prepare('DELETE FROM tokens WHERE expires_at < ?'),
  };
}

/** The statements {@link prepareStatements} returns. */
export type SqliteStatements = ReturnType<typeof prepareStatements>;

/** Inserts `e` at the next feed position (in the caller's write transaction). */
export function insertEventRecord(s: SqliteStatements, e: EventRow): void {
  s.insertEvent.run({
    prescription_id: e.prescriptionId,
    seq: e.seq,
    id: e.id,
    parent_hash: e.parentHash,
    body: e.body,
    hash: e.hash,
    signature: e.signature,
  });
}

/** Inserts the remembered call `r` (in the caller's write transaction). */
export function insertIdempotencyRecord(s: SqliteStatements, r: IdempotencyRow): void {
  s.insertIdempotency.run({
    actor: r.actor,
    key: r.key,
    request_hash: r.requestHash,
    prescription_id: r.prescriptionId,
    event_id: r.eventId,
    answer: r.answer ?? null,
    created_at: r.createdAt,
  });
}

/** Stores (or replaces) the sealed verified head `row` (in the caller's write transaction). */
export function putVerifiedHeadRecord(s: SqliteStatements, row: VerifiedHeadRow): void {
  s.putVerifiedHead.run({
    prescription_id: row.prescriptionId,
    head_hash: row.headHash,
    seal: row.seal,
  });
}
