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
    insertEvent: db.prepare(
      `INSERT INTO events (prescription_id, seq, id, parent_hash, body, hash, signature)
       VALUES (@prescription_id, @seq, @id, @parent_hash, @body, @hash, @signature)`,
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
      `INSERT INTO clients (client_id, secret_hash, role, name, description, sub, created_at)
       VALUES (@clientId, @secretHash, @role, @name, @description, @sub, @createdAt)`,
    ),
    getClient: db.prepare<[string], ClientRecord>('SELECT * FROM clients WHERE client_id = ?'),
    listClients: db.prepare<[], ClientRecord>('SELECT * FROM clients ORDER BY client_id'),
    removeClient: db.prepare('DELETE FROM clients WHERE client_id = ?'),
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
