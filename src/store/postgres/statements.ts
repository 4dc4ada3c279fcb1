/** The SQL of the PostgreSQL store, over the tables of `../migrations.ts`. */

/** Column lists shared by the reads, so each row maps through `../records.ts`. */
const PRESCRIPTION_COLUMNS = 'id, issuer, issuer_actor, issued_at, medicaments, head_hash, terms';
const EVENT_COLUMNS = 'prescription_id, seq, id, parent_hash, body, hash, signature';

/** Every statement the PostgreSQL store runs. */
export const SQL = {
  getPrescription: `SELECT ${PRESCRIPTION_COLUMNS} FROM prescriptions WHERE id = $1`,
  /**
   * The row lock that serialises appends to one prescription across instances (SPEC.md §7); it is
   * held until the held chain's transaction ends (`./hold.ts`).
   */
  lockPrescription: `SELECT ${PRESCRIPTION_COLUMNS} FROM prescriptions WHERE id = $1 FOR UPDATE`,
  /**
   * A prescription and its events in one statement, hence one snapshot: the head and the events
   * always agree (SPEC.md §6 `logs_check_passed` compares them).
   */
  getChain: `SELECT p.id AS p_id, p.issuer, p.issuer_actor, p.issued_at, p.medicaments, p.head_hash,
      p.terms,
      e.prescription_id, e.seq, e.id, e.parent_hash, e.body, e.hash, e.signature
    FROM prescriptions p LEFT JOIN events e ON e.prescription_id = p.id
    WHERE p.id = $1 ORDER BY e.seq`,
  getEvents: `SELECT ${EVENT_COLUMNS} FROM events WHERE prescription_id = $1 ORDER BY seq`,
  getEvent: `SELECT ${EVENT_COLUMNS} FROM events WHERE id = $1`,
  insertPrescription: `INSERT INTO prescriptions (${PRESCRIPTION_COLUMNS})
    VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  insertEvent: `INSERT INTO events (${EVENT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  addTerms: 'UPDATE prescriptions SET terms = $2 WHERE id = $1 AND terms IS NULL',
  /** Compare-and-set of the head (`./writes.ts`); the unique keys on events back it up. */
  moveHead: 'UPDATE prescriptions SET head_hash = $2 WHERE id = $1 AND head_hash = $3',
  getVerifiedHead:
    'SELECT prescription_id, head_hash, seal FROM verified_heads WHERE prescription_id = $1',
  putVerifiedHead: `INSERT INTO verified_heads (prescription_id, head_hash, seal) VALUES ($1, $2, $3)
    ON CONFLICT (prescription_id) DO UPDATE SET head_hash = excluded.head_hash, seal = excluded.seal`,
  insertIdempotency: `INSERT INTO idempotency
    (actor, key, request_hash, prescription_id, event_id, answer, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)`,
  getIdempotency: `SELECT actor, key, request_hash, prescription_id, event_id, answer, created_at
    FROM idempotency WHERE actor = $1 AND key = $2`,
  purgeIdempotency: 'DELETE FROM idempotency WHERE created_at < $1',
  listIds: 'SELECT id FROM prescriptions WHERE id > $1 ORDER BY id LIMIT $2',
  count: 'SELECT count(*) AS n FROM prescriptions',
  addClient: `INSERT INTO clients (client_id, secret_hash, role, name, description, sub, created_at,
      profile)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
  getClient: `SELECT client_id, secret_hash, role, name, description, sub, created_at, profile
    FROM clients WHERE client_id = $1`,
  listClients: `SELECT client_id, secret_hash, role, name, description, sub, created_at, profile
    FROM clients ORDER BY client_id`,
  removeClient: 'DELETE FROM clients WHERE client_id = $1',
  setClientProfile: 'UPDATE clients SET profile = $2 WHERE client_id = $1',
  replaceClientSecretHash:
    'UPDATE clients SET secret_hash = $3 WHERE client_id = $1 AND secret_hash = $2',
  insertToken: `INSERT INTO tokens (token_hash, client_id, expires_at, created_at)
    VALUES ($1, $2, $3, $4)`,
  getToken:
    'SELECT token_hash, client_id, expires_at, created_at FROM tokens WHERE token_hash = $1',
  purgeTokens: 'DELETE FROM tokens WHERE expires_at < $1',
} as const;
