/**
 * The transparency log catching up after erx starts. Events erx did not log (the bulk loader's, or
 * those of an erx run with `ERX_LOG=off`) become leaves at its next start, in the background, at
 * most `GROWTH_LEAVES` per transaction; until the log has caught up, a new event's checkpoint
 * waits for all of them, and an answer past `ERX_LOG_RECEIPT_WAIT` goes without its receipt. A
 * figure measured meanwhile would measure the catch-up, so the bench waits for it: it sends one
 * partial dispense at a time until an answer carries a receipt. Positions have no gaps, so a
 * receipt for the newest event means every event before it is a leaf of that checkpoint.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Manifest } from '../data/dataset.js';
import type { SampleDocument } from '../data/document.js';
import type { ErxTarget, PoolCursor } from '../figures.js';
import { requestAt } from '../load/request-plan.js';
import type { ErxBuild } from './build.js';

/** The environment of an erx that keeps no transparency log (config: `ERX_LOG`). */
export const LOG_OFF_ENVIRONMENT: Readonly<Record<string, string>> = { ERX_LOG: 'off' };

/** How long the log took to take in what it had not logged when erx started. */
export interface LogCatchUp {
  /**
   * From erx's start (spawned) to its log's checkpoint reaching the size awaited, or, when none
   * was given (or erx serves no checkpoint), to the first answer that carried a receipt, s.
   */
  readonly seconds: number;
  /** From erx's start to its listening (when it could first be asked), s. */
  readonly listening_seconds: number;
  /** The checkpoint's size awaited (the set's events), if one was. */
  readonly leaves?: number;
  /** Partial dispenses sent until one carried a receipt (each waits at most the receipt wait). */
  readonly probes: number;
}

/** When an erx was spawned and when it listened (`performance.now()`). */
export interface ErxStart {
  readonly startedAt: number;
  readonly listeningAt: number;
}

/** Between two looks at the checkpoint, ms. */
const POLL_MS = 100;

/**
 * The size of erx's newest checkpoint (0 while the log is empty), or undefined when erx serves
 * no checkpoint (a build without `GET /log/checkpoint`).
 */
async function checkpointSize(url: string): Promise<number | undefined> {
  const response = await fetch(`${url}/log/checkpoint`);
  const text = await response.text();
  if (response.status === 404) return text.includes('no_checkpoint') ? 0 : undefined;
  // A checkpoint note: origin, size, root hash, a blank line, signatures (c2sp.org/tlog-checkpoint).
  const size = Number(text.split('\n')[1]);
  if (response.status !== 200 || !Number.isSafeInteger(size)) {
    throw new Error(`log catch-up: GET /log/checkpoint: ${response.status} ${text.slice(0, 200)}`);
  }
  return size;
}

/**
 * Whether `build` keeps a transparency log that `ERX_LOG=off` turns off: an older revision (with
 * `--compare`) may have no log, or one it cannot turn off, and then the bench neither waits for
 * receipts nor measures the log figure.
 */
export function hasSwitchableLog(build: ErxBuild): boolean {
  const src = join(dirname(build.main), '..');
  const config = join(src, 'config', 'index.js');
  return (
    existsSync(join(src, 'transparency', 'transparency-log.js')) &&
    existsSync(config) &&
    readFileSync(config, 'utf8').includes("'ERX_LOG'")
  );
}

/** Longest catch-up waited for: a minute, and a millisecond per event of the set. */
export function catchUpBoundMs(manifest: Manifest): number {
  return 60_000 + manifest.events;
}

/**
 * Waits, with `leaves`, until erx's checkpoint has that size (checked every {@link POLL_MS}),
 * then sends partial dispenses, one at a time, on the dispense figure's pool, until an answer
 * carries a receipt; throws on an answer that is not a partial dispense, or past
 * {@link catchUpBoundMs}.
 */
export async function awaitLogCaughtUp(
  target: ErxTarget,
  manifest: Manifest,
  sample: SampleDocument,
  cursor: PoolCursor,
  start: ErxStart,
  leaves?: number,
): Promise<LogCatchUp> {
  const since = (): number => (performance.now() - start.startedAt) / 1000;
  const listening = { listening_seconds: (start.listeningAt - start.startedAt) / 1000 };
  const deadline = performance.now() + catchUpBoundMs(manifest);
  let reached: number | undefined;
  if (leaves !== undefined) {
    for (;;) {
      const size = await checkpointSize(target.url);
      if (size === undefined) break;
      if (size >= leaves) {
        reached = since();
        break;
      }
      if (performance.now() > deadline) {
        throw new Error(`log catch-up: the checkpoint is at ${size} of ${leaves} leaves`);
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
  const plan = {
    kind: 'dispense',
    ids: manifest.dispenseIds,
    medicamentId: sample.medicamentId,
    authorization: target.pharmacist,
  } as const;
  for (let probes = 1; ; probes++) {
    const planned = requestAt(plan, cursor.dispense++);
    const response = await fetch(`${target.url}${planned.path}`, {
      method: planned.method,
      headers: planned.headers,
      body: planned.body,
    });
    const text = await response.text();
    const body = JSON.parse(text) as { type?: unknown; receipt?: unknown };
    if (response.status !== 200 || body.type !== 'partial_dispense') {
      throw new Error(`log catch-up: a dispense failed: ${response.status} ${text.slice(0, 400)}`);
    }
    if (typeof body.receipt === 'string') {
      return reached === undefined
        ? { seconds: since(), ...listening, probes }
        : { seconds: reached, ...listening, leaves: leaves!, probes };
    }
    if (performance.now() > deadline) {
      throw new Error(`log catch-up: no receipt after ${probes} dispenses; is the log growing?`);
    }
  }
}
