/**
 * `erx audit verify` over a SQLite file edited behind erx's back: a chain edit is reported at its
 * event and check, an edited copy of the signed terms (issuer actor, medicaments, issue time,
 * expiry, signature) as a `terms` failure with the reason `readTerms` gives, and untouched
 * prescriptions pass.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { loadConfig } from '../../config/index.js';
import { EventVerifier } from '../../ledger/index.js';
import { openSqliteStore } from '../../store/sqlite/sqlite-store.js';
import { PHARMACIST, as, createSample, withService } from '../../../test/support/service.js';
import { auditChains } from './audit.js';
import type { AuditFailure } from './audit.js';
import type { TermsFailure } from '../rules/terms.js';
import { VerificationMemory } from '../../memory/verification-memory.js';

const VALIDITY_MS = loadConfig({}).prescriptionValidityMs;

/** One edit of a prescription row, by column, and the failure the audit must report. */
interface Edit {
  readonly name: string;
  readonly sql: string;
  readonly value: (row: Record<string, unknown>) => string | number;
  readonly expected: Pick<AuditFailure, 'firstBadIndex' | 'failedCheck' | 'reason'>;
}

const terms = (reason: TermsFailure) =>
  ({ firstBadIndex: undefined, failedCheck: 'terms', reason }) as const;
const storedTerms = (row: Record<string, unknown>) =>
  JSON.parse(String(row.terms)) as { expires_at: number; signature: string };

const EDITS: readonly Edit[] = [
  {
    name: 'issuer_actor: another prescriber',
    sql: 'UPDATE prescriptions SET issuer_actor = ? WHERE id = ?',
    value: () => 'HIN|doctor2',
    expected: terms('issuer'),
  },
  {
    name: 'medicaments: 50 packages instead of 1',
    sql: 'UPDATE prescriptions SET medicaments = ? WHERE id = ?',
    value: (row) =>
      JSON.stringify(
        (JSON.parse(String(row.medicaments)) as { NbPack?: number }[]).map((m, i) =>
          i === 0 ? { ...m, NbPack: 50 } : m,
        ),
      ),
    expected: terms('terms_signature'),
  },
  {
    name: 'issued_at: a day earlier',
    sql: 'UPDATE prescriptions SET issued_at = ? WHERE id = ?',
    value: (row) => Number(row.issued_at) - 86_400,
    expected: terms('terms_signature'),
  },
  {
    name: 'terms: expires a year later',
    sql: 'UPDATE prescriptions SET terms = ? WHERE id = ?',
    value: (row) => {
      const t = storedTerms(row);
      return JSON.stringify({ ...t, expires_at: t.expires_at + VALIDITY_MS });
    },
    expected: terms('terms_signature'),
  },
  {
    name: 'terms: another signature',
    sql: 'UPDATE prescriptions SET terms = ? WHERE id = ?',
    value: (row) =>
      JSON.stringify({ ...storedTerms(row), signature: randomBytes(64).toString('hex') }),
    expected: terms('terms_signature'),
  },
  {
    name: 'head_hash: another head (a chain check)',
    sql: 'UPDATE prescriptions SET head_hash = ? WHERE id = ?',
    value: () => randomBytes(32).toString('hex'),
    expected: { firstBadIndex: 1, failedCheck: 'head', reason: 'head_mismatch' },
  },
];

// The database in a file, so a second connection can edit it.
test('the audit reports edited terms as terms failures, beside the chain checks', () =>
  withService({ onDisk: true }, async ({ parts, service, databaseFile }) => {
    const file = databaseFile!;
    const created = new Map<Edit | 'control', string>();
    for (const edit of [...EDITS, 'control' as const]) {
      const { id } = await createSample(service);
      await service.dispense(id, undefined, { force: false }, as(PHARMACIST));
      created.set(edit, id);
    }
    const db = new Database(file);
    try {
      for (const edit of EDITS) {
        const id = created.get(edit)!;
        const row = db.prepare('SELECT * FROM prescriptions WHERE id = ?').get(id) as Record<
          string,
          unknown
        >;
        assert.equal(db.prepare(edit.sql).run(edit.value(row), id).changes, 1, edit.name);
      }
    } finally {
      db.close();
    }
    // As `erx audit verify` does: its own store over the file, the keys, the configured validity.
    const store = openSqliteStore(file);
    try {
      const report = await auditChains(
        store,
        new EventVerifier(parts.pki.trustStore, new VerificationMemory()),
        {
          linkKeys: parts.linkKeys,
          prescriptionValidityMs: VALIDITY_MS,
        },
      );
      assert.equal(report.checked, EDITS.length + 1);
      assert.equal(report.events, 2 * (EDITS.length + 1));
      const byId = new Map(report.failures.map((f) => [f.prescriptionId, f]));
      for (const edit of EDITS) {
        const id = created.get(edit)!;
        assert.deepEqual(byId.get(id), { prescriptionId: id, ...edit.expected }, edit.name);
      }
      assert.equal(byId.has(created.get('control')!), false, 'the control is not flagged');
      assert.equal(report.failures.length, EDITS.length);
    } finally {
      await store.close();
    }
  }));

test('an untouched store passes the audit, terms included', () =>
  withService(async ({ parts, service }) => {
    for (let i = 0; i < 3; i++) {
      const { id } = await createSample(service);
      await service.dispense(id, undefined, { force: false }, as(PHARMACIST));
    }
    const report = await auditChains(
      parts.store,
      new EventVerifier(parts.pki.trustStore, new VerificationMemory()),
      {
        linkKeys: parts.linkKeys,
        prescriptionValidityMs: VALIDITY_MS,
      },
    );
    assert.deepEqual(report, { checked: 3, events: 6, failures: [], log: [] });
  }));
