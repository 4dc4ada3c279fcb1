/**
 * Tampering on SQLite: rows edited directly in the database file beside the running service
 * (each event column, deletions, reordering, the head, forged and replayed events, the columns of
 * the prescription) are reported by verify and by `erx audit verify` at the first bad event, and
 * whatever the audit reports refuses every change (SPEC.md §10).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sqlitePath } from '../../src/server/open-store.js';
import { useTestServer } from '../support/server.js';
import { sqliteRows } from './rows.js';
import { describeTamper, runTamperTable } from './run-tamper.js';

const server = useTestServer();

test('sqlite: every tampering of the stored rows is reported where it matters', async () => {
  const rows = sqliteRows(sqlitePath(server.dataDir));
  try {
    const report = await runTamperTable(server, rows, { ERX_DATA_DIR: server.dataDir });
    console.log(describeTamper('sqlite', report));
    for (const limit of report.notDetected) console.log(`  not detected by design: ${limit}`);
    assert.deepEqual(report.problems, []);
    assert.equal(
      report.chainDetected + report.recordDetected + report.notDetected.length,
      report.cases,
    );
  } finally {
    rows.close();
  }
});
