/**
 * Tampering on PostgreSQL: the same table of tampering, with the rows edited over a plain
 * connection beside the running service, reported by verify and by `erx audit verify`, and
 * refusing every change where the audit reports it (SPEC.md §10).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestDatabase, postgresSuite, withConnection } from '../support/postgres.js';
import type { TestDatabase } from '../support/postgres.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { postgresRows } from './rows.js';
import { describeTamper, runTamperTable } from './run-tamper.js';

await postgresSuite('database tampering on PostgreSQL', () => {
  let db: TestDatabase;
  let server: TestServer;

  before(async () => {
    db = await createTestDatabase();
    server = await startTestServer({ env: { ERX_DATABASE_URL: db.url } });
  });
  after(async () => {
    await server?.close();
    await db?.drop();
  });

  test('postgres: every tampering of the stored rows is reported where it matters', async () => {
    const report = await withConnection(db.url, (client) =>
      runTamperTable(server, postgresRows(client), {
        ERX_DATA_DIR: server.dataDir,
        ERX_DATABASE_URL: db.url,
      }),
    );
    console.log(describeTamper('postgres', report));
    assert.deepEqual(report.problems, []);
    assert.equal(
      report.chainDetected + report.recordDetected + report.notDetected.length,
      report.cases,
    );
  });
});
