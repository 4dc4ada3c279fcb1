/** The two engines' migration lists stay aligned: same versions, both filled, text bodies only. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LATEST_SCHEMA_VERSION, MIGRATIONS } from './migrations.js';

describe('migrations', () => {
  it('are numbered 1, 2, 3, … without gaps, each written for both engines', () => {
    assert.ok(MIGRATIONS.length > 0);
    MIGRATIONS.forEach((m, i) => {
      assert.equal(m.version, i + 1);
      assert.notEqual(m.sqlite.trim(), '');
      assert.notEqual(m.postgres.trim(), '');
    });
    assert.equal(LATEST_SCHEMA_VERSION, MIGRATIONS.length);
  });

  it('never store event bodies in a JSON column (SPEC.md §7: the exact signed bytes)', () => {
    // A cast that reads a body (`body::json`) stores nothing; a column declared json would.
    for (const m of MIGRATIONS) {
      assert.doesNotMatch(m.postgres.replace(/::jsonb?\b/gi, ''), /\bjsonb?\b/i);
    }
  });

  it('create the same tables in both engines', () => {
    const tables = (sql: string): string[] =>
      [...sql.matchAll(/CREATE TABLE (\w+)/gi)].map((r) => r[1]!.toLowerCase()).sort();
    for (const m of MIGRATIONS) assert.deepEqual(tables(m.postgres), tables(m.sqlite));
  });
});
