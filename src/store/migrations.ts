/**
 * The versioned schema of both engines, side by side: each entry is one schema change written once
 * for SQLite and once for PostgreSQL, so the two can never drift apart in version (STYLE.md point 5).
 * An entry is applied once, in order, and recorded in `schema_migrations`; entries are never edited
 * after release, only appended. Each version's SQL text is a file of its own in `./schema/`.
 *
 * Both engines keep the same tables, columns and constraints (SPEC.md §7): event bodies are `TEXT`
 * (the exact signed bytes, never a JSON column), `(prescription_id, seq)` is the primary key and
 * `(prescription_id, parent_hash)` is unique, so a chain cannot fork even if a lock is bypassed.
 */
import type { Migration } from './schema/migration.js';
import { V1 } from './schema/v1-tables.js';
import { V2 } from './schema/v2-verified-heads.js';
import { V3 } from './schema/v3-terms.js';
import { V4 } from './schema/v4-feed.js';
import { V5 } from './schema/v5-prescriber-profile.js';
import { V6 } from './schema/v6-catalog.js';
import { V7 } from './schema/v7-transparency-log.js';
import { V8 } from './schema/v8-log-leaves.js';

export type { Migration } from './schema/migration.js';

/** Every migration, in version order. */
export const MIGRATIONS: readonly Migration[] = Object.freeze([V1, V2, V3, V4, V5, V6, V7, V8]);

/** The schema version this code expects: the last migration's. */
export const LATEST_SCHEMA_VERSION: number = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0);
