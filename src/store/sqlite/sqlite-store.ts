/**
 * SQLite implementation of {@link Store}: WAL, `synchronous=FULL` (SPEC.md §7). Writes use group
 * commit: those of one event-loop turn share one `BEGIN IMMEDIATE` transaction and its fsync, and
 * each is acknowledged only after that COMMIT (`./group-commit.ts`). An append moves the head only
 * if it still is the one its decision was made on (compare-and-swap under the write lock), so
 * several processes on one file never fork a chain. A running service checkpoints the WAL on a
 * background thread (`./background-checkpoints.ts`), so no COMMIT waits for one.
 */
import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { AlreadyExists, IdempotencyRace, StaleHead } from '../races.js';
import { medicamentsText, termsText, toEvent, toPrescription } from '../records.js';
import type {
  AppendDecision,
  ChainRead,
  ChainReadOptions,
  ChainState,
  EventRow,
  HeldChain,
  PrescriptionRow,
  Store,
} from '../types.js';
import { BackgroundCheckpoints } from './background-checkpoints.js';
import { SqliteCatalog } from './catalog.js';
import { SqliteLog } from './log.js';
import { ChainMemo } from './chain-memo.js';
import type { RememberedRead } from './chain-memo.js';
import { SqliteClients } from './clients.js';
import { isUniqueViolation } from './errors.js';
import { SqliteFeed } from './feed.js';
import { GroupCommit } from './group-commit.js';
import { migrateSqlite, sqliteSchemaVersion } from './migrate.js';
import { makeDatabasePrivate } from './private-files.js';
import { SqliteIdempotency, SqlitePrescriptions, SqliteVerifiedHeads } from './parts.js';
import {
  insertEventRecord,
  insertIdempotencyRecord,
  prepareStatements,
  putVerifiedHeadRecord,
} from './statements.js';
import type { SqliteStatements } from './statements.js';
import { DEFAULT_MEMORY_BOUNDS } from '../../config/memory-bounds.js';
import type { MemoryBounds } from '../../config/memory-bounds.js';

/**
 * SQLite's page cache per connection, in KiB (as `PRAGMA cache_size` takes it, negative). The
 * driver compiles in 16 MB; on a large file the cache holds mostly pages read once, which the
 * kernel's page cache holds anyway, and 4 MB kept erx's peak RSS 8–16 MB lower at the same
 * throughput (docs/decisions.md).
 */
export const PAGE_CACHE_KIB = 4_000;

/** How {@link openSqliteStore} opens the file. */
export interface SqliteStoreOptions {
  /**
   * `FULL` (the default, and the only value the service and the CLI use): a commit reaches the
   * disk before it is acknowledged. `OFF` acknowledges commits a power cut can take back; it exists
   * for the crash suite's control run, which must show that its harness sees such a loss. It is
   * deliberately not configuration: no environment can weaken a running service.
   */
  readonly synchronous?: 'FULL' | 'OFF';
  /**
   * Checkpoint the WAL on a background thread (`./background-checkpoints.ts`) rather than on the
   * committing connection, whose COMMITs it would otherwise block now and then. For a running
   * service; short-lived commands and tests leave it off. Ignored for `:memory:`.
   */
  readonly backgroundCheckpoints?: boolean;
  /** The bounds of its chain memo: the configuration's (`ERX_MEMORY_CHAINS_MB`, `_READ_ONCE`). */
  readonly memory?: Pick<MemoryBounds, 'chainChars' | 'readOnce'>;
}

/** Opens (and creates) the SQLite store at `file`. */
export function openSqliteStore(file: string, options: SqliteStoreOptions = {}): SqliteStore {
  if (file !== ':memory:') {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    makeDatabasePrivate(file);
  }
  return new SqliteStore(new Database(file), options);
}

/** The SQLite store over one open database (use {@link openSqliteStore}). */
export class SqliteStore implements Store {
  readonly engine = 'sqlite' as const;
  readonly #db: Database.Database;
  readonly #commits: GroupCommit;
  private readonly stmts: SqliteStatements;
  /** A chain as committed, read in one transaction. */
  readonly #readChain: (prescriptionId: string) => ChainState | undefined;
  /** Chains read before, answered again while nothing else has committed (`./chain-memo.ts`). */
  readonly #chains: ChainMemo;
  readonly #checkpoints: BackgroundCheckpoints | undefined;
  readonly catalog: SqliteCatalog;
  readonly log: SqliteLog;
  readonly clients: SqliteClients;
  readonly feed: SqliteFeed;
  readonly idempotency: SqliteIdempotency;
  readonly verifiedHeads: SqliteVerifiedHeads;
  readonly prescriptions: SqlitePrescriptions;

  constructor(db: Database.Database, options: SqliteStoreOptions = {}) {
    this.#db = db;
    const bounds = options.memory ?? DEFAULT_MEMORY_BOUNDS;
    this.#chains = new ChainMemo(bounds.chainChars, bounds.readOnce);
    db.pragma('journal_mode = WAL');
    db.pragma(options.synchronous === 'OFF' ? 'synchronous = OFF' : 'synchronous = FULL');
    db.pragma('foreign_keys = ON');
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    // Migrated before the statements are prepared: they need the tables.
    migrateSqlite(db);
    this.stmts = prepareStatements(db);
    this.feed = new SqliteFeed(db);
    if (options.backgroundCheckpoints === true && !db.memory) {
      this.#checkpoints = new BackgroundCheckpoints(db, db.name);
    }
    this.#commits = new GroupCommit(db, this.#checkpoints?.hold);
    this.clients = new SqliteClients(this.stmts, this.#commits);
    this.idempotency = new SqliteIdempotency(this.stmts, this.#commits);
    this.verifiedHeads = new SqliteVerifiedHeads(this.stmts, this.#commits);
    this.prescriptions = new SqlitePrescriptions(this.stmts, this.#commits, (id) =>
      this.#chains.forget(id),
    );
    this.catalog = new SqliteCatalog(db, this.#commits);
    this.log = new SqliteLog(db, this.#commits);
    // A prescription and its events in one read transaction, so the head and the events come
    // from the same snapshot. Wrapped once: better-sqlite3 builds a wrapper on every call.
    this.#readChain = db.transaction((prescriptionId: string) => {
      const p = this.stmts.getPrescription.get(prescriptionId);
      const events = () => this.stmts.getEvents.all(prescriptionId).map(toEvent);
      return p && { prescription: toPrescription(p), events: events() };
    });
  }

  async migrate(): Promise<void> {
    migrateSqlite(this.#db);
  }

  async schemaVersion(): Promise<number> {
    return sqliteSchemaVersion(this.#db);
  }

  async ping(): Promise<void> {
    this.#db.prepare('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (!this.#db.open) return;
    this.#commits.flush();
    await this.#checkpoints?.stop();
    this.#db.close();
  }

  async insertPrescription(row: PrescriptionRow, create: AppendDecision): Promise<void> {
    const s = this.stmts;
    const write = (): void => {
      this.#chains.forget(row.id);
      // The remembered call first, so a retry with the same key replays rather than collides.
      if (create.idempotency) insertIdempotencyRecord(s, create.idempotency);
      s.insertPrescription.run({
        id: row.id,
        issuer: row.issuer,
        issuer_actor: row.issuerActor,
        issued_at: row.issuedAt,
        medicaments: medicamentsText(row.medicaments),
        head_hash: create.event.hash,
        terms: termsText(row.terms),
      });
      insertEventRecord(s, create.event);
      if (create.seal) putVerifiedHeadRecord(s, create.seal);
    };
    try {
      await this.#commits.run(write);
    } catch (error) {
      if (isUniqueViolation(error, 'prescriptions.id')) {
        throw new AlreadyExists('prescription');
      }
      if (isUniqueViolation(error, 'idempotency.')) throw new IdempotencyRace();
      throw error;
    }
  }

  async readChain(
    prescriptionId: string,
    options: ChainReadOptions = {},
  ): Promise<ChainRead | undefined> {
    return this.#readCommitted(prescriptionId, options.remember !== false);
  }

  async holdChain(prescriptionId: string): Promise<HeldChain | undefined> {
    const read = this.#readCommitted(prescriptionId, false);
    if (read === undefined) return undefined;
    // Nothing to hold across processes: the write compares the head (see the file comment).
    let ended = false;
    return {
      state: read.state,
      append: (decision) => {
        if (ended) return Promise.reject(new Error('the hold on this chain has ended'));
        ended = true;
        return this.appendEvent(decision, read.state.prescription.headHash);
      },
      release: async () => {
        ended = true;
      },
    };
  }

  /** `PRAGMA data_version` now: it moves only when another connection commits. */
  #dataVersion(): number | undefined {
    return this.stmts.dataVersion.get()?.data_version;
  }

  /**
   * The chain as committed now. The read transaction never sees a queued write: group commit
   * opens and commits its transaction within one synchronous step. A chain read before is
   * answered again (the same frozen object) only while no other connection or process has
   * committed anything since, so a change made beside erx, tampering included, is read at once.
   * A chain not remembered is remembered on its second read if `remember`.
   */
  #readCommitted(prescriptionId: string, remember: boolean): ChainRead | undefined {
    // Inside a transaction someone else opened (the bulk loader) what is read may be rolled back.
    if (this.#db.inTransaction) {
      const state = this.#readChain(prescriptionId);
      return state && { state, snapshot: undefined, transient: true };
    }
    const known = this.#chains.read(prescriptionId, this.#dataVersion());
    if (known !== undefined) return known;
    const state = this.#readChain(prescriptionId);
    if (state === undefined) return undefined;
    if (remember) return this.#chains.rememberRead(prescriptionId, state);
    return { state, snapshot: undefined, transient: true };
  }

  /**
   * The chain remembered for `prescriptionId`, if any and if still valid: every remembered chain
   * is forgotten once `PRAGMA data_version` shows another connection's commit. Never inside a
   * transaction someone else opened.
   */
  #rememberedChain(prescriptionId: string): ChainState | undefined {
    if (this.#db.inTransaction) return undefined;
    return this.#chains.get(prescriptionId, this.#dataVersion());
  }

  async getEvent(eventId: string): Promise<EventRow | undefined> {
    const r = this.stmts.getEvent.get(eventId);
    return r ? toEvent(r) : undefined;
  }

  async appendEvent(decision: AppendDecision, expectedHead: string): Promise<void> {
    const { event, idempotency } = decision;
    const id = event.prescriptionId;
    // A chain remembered at this head (verified or changed a moment ago, at a counter) stays so:
    // the chain as remembered, at this database version, gets the new event once committed.
    const known = this.#rememberedChain(id);
    const remembered: RememberedRead | undefined =
      known?.prescription.headHash === expectedHead
        ? { state: known, readAt: this.#chains.version }
        : undefined;
    const write = (): void => {
      // Forgotten in the step that commits: no read can come between the COMMIT and this.
      this.#chains.forget(id);
      const moved = this.stmts.moveHead.run({ id, head_hash: event.hash, expected: expectedHead });
      if (moved.changes !== 1) throw new StaleHead();
      insertEventRecord(this.stmts, event);
      if (idempotency) insertIdempotencyRecord(this.stmts, idempotency);
      if (decision.seal) putVerifiedHeadRecord(this.stmts, decision.seal);
    };
    const committed =
      remembered &&
      ((): void => this.#chains.rememberAppended(remembered, event, () => this.#dataVersion()));
    try {
      await this.#commits.run(write, committed);
    } catch (error) {
      if (isUniqueViolation(error, 'events.')) throw new StaleHead();
      if (isUniqueViolation(error, 'idempotency.')) throw new IdempotencyRace();
      throw error;
    }
  }
}
