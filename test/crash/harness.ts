/**
 * The crash suite's harness, shared by every engine and by the control run: registering the two
 * clients, creating the prescriptions, the dispense storm, and the one check that matters after a
 * restart — every acknowledged event is present and every chain verifies.
 */
import assert from 'node:assert/strict';
import { TokenService } from '../../src/auth/index.js';
import { openStore } from '../../src/server/open-store.js';
import { openPepper } from '../../src/server/pepper-key.js';
import type { DispenseItem } from '../../src/service/index.js';
import { fetchToken as fetchClientToken } from '../support/http.js';
import { MED_A, samplePrescription } from '../support/fixtures.js';

/** Links name this address in every crash test, so the in-process control and `erx serve` agree. */
export const PRESCRIPTION_URL = 'http://erx.test/rx/';
export const SECRET = 'crash-secret-0123456789';
export const DOCTOR = {
  clientId: 'doc',
  role: 'prescriber',
  name: 'Dr. Crash',
  sub: 'HIN|doc',
} as const;
export const PHARMACIST = {
  clientId: 'ph',
  role: 'pharmacist',
  name: 'Apo Crash',
  sub: 'HIN|ph',
} as const;

/** The environment of `erx serve` over `dataDir` (and PostgreSQL when `databaseUrl` is given). */
export function crashEnv(dataDir: string, databaseUrl?: string): Record<string, string> {
  return {
    ERX_DATA_DIR: dataDir,
    ERX_PRESCRIPTION_URL: PRESCRIPTION_URL,
    ERX_RATE_LIMIT_SUBJECT: '0',
    ERX_RATE_LIMIT_ANON: '0',
    // The storm forces dispensations on a few prescriptions, far past any real chain's length.
    ERX_CHAIN_MAX_EVENTS: '100000',
    ERX_CHAIN_ACTOR_EVENTS: '100000',
    ...(databaseUrl === undefined ? {} : { ERX_DATABASE_URL: databaseUrl }),
  };
}

/** Registers the prescriber and the pharmacist directly in the store (no CLI start-up). */
export async function registerClients(dataDir: string, databaseUrl?: string): Promise<void> {
  const store = await openStore({ dataDir, databaseUrl });
  try {
    const tokens = new TokenService(store, openPepper({ dataDir, pepper: undefined }));
    for (const actor of [DOCTOR, PHARMACIST]) {
      await tokens.addClient({ ...actor, secret: SECRET, description: 'crash suite' });
    }
  } finally {
    await store.close();
  }
}

/** A bearer token of `clientId` from the token endpoint of the server at `url`. */
export function fetchToken(url: string, clientId: string): Promise<string> {
  return fetchClientToken(url, clientId, SECRET);
}

/** Creates `count` prescriptions through the API; answers id → link. */
export async function createPrescriptions(
  url: string,
  doctorToken: string,
  count: number,
): Promise<Map<string, string>> {
  const links = new Map<string, string>();
  for (let i = 0; i < count; i++) {
    const response = await fetch(`${url}/ePrescription/create?output-format=data`, {
      method: 'POST',
      headers: { authorization: `Bearer acs:${doctorToken}`, 'content-type': 'application/json' },
      body: JSON.stringify(samplePrescription()),
    });
    assert.equal(response.status, 200, await response.clone().text());
    const created = (await response.json()) as {
      SignedPrescriptionData: string;
      prescription_id: string;
    };
    links.set(created.prescription_id, created.SignedPrescriptionData);
  }
  return links;
}

/** One dispense of the storm: full (no items) or partial, always forced. */
export function stormDispense(): DispenseItem[] | undefined {
  return Math.random() < 0.3 ? undefined : [{ id: MED_A, amount: 1 }];
}

/** Picks one of `ids` at random. */
export function pick<T>(ids: readonly T[]): T {
  return ids[Math.floor(Math.random() * ids.length)] as T;
}

/** Event ids acknowledged with a 200, per prescription. */
export type Acknowledged = Map<string, Set<string>>;

/** Records that event `eventId` of prescription `id` was acknowledged. */
export function acknowledge(acked: Acknowledged, id: string, eventId: string): void {
  const set = acked.get(id) ?? new Set<string>();
  set.add(eventId);
  acked.set(id, set);
}

/** What a storm did before the kill. */
export interface StormResult {
  acknowledged: number;
  /** Calls that got no answer: cut by the kill, recorded or not. */
  unanswered: number;
  /** Answers other than 200 (a forced dispense has no reason to be refused). */
  refused: string[];
}

/**
 * Sends forced dispenses from `workers` concurrent clients to the server at `url` until `killAtMs`
 * has passed since the `acknowledgedBeforeKill`-th acknowledgement (default: the first), then runs
 * `kill` while calls are still in flight.
 */
export async function stormUntilKilled(options: {
  url: string;
  token: string;
  ids: readonly string[];
  acked: Acknowledged;
  workers: number;
  killAtMs: number;
  acknowledgedBeforeKill?: number;
  kill: () => Promise<void>;
}): Promise<StormResult> {
  const result: StormResult = { acknowledged: 0, unanswered: 0, refused: [] };
  let killed = false;
  // The random moment is counted from the first acknowledgements: on a loaded machine the first
  // answers can take longer than the shortest storm, and a round with nothing acknowledged proves
  // nothing.
  const enough = options.acknowledgedBeforeKill ?? 1;
  let enoughAcked: () => void = () => undefined;
  const acknowledgedOnce = new Promise<void>((resolve) => (enoughAcked = resolve));
  const noAnswer = new Promise<void>((resolve) => setTimeout(resolve, 20_000));
  const timer = Promise.race([acknowledgedOnce, noAnswer]).then(
    () => new Promise<void>((resolve) => setTimeout(resolve, options.killAtMs)),
  );
  const killing = timer.then(async () => {
    killed = true;
    await options.kill();
  });
  const worker = async (): Promise<void> => {
    while (!killed) {
      const id = pick(options.ids);
      const items = stormDispense();
      try {
        const response = await fetch(`${options.url}/ePrescription/dispense/${id}?force=true`, {
          method: 'POST',
          headers: {
            authorization: `Bearer acs:${options.token}`,
            ...(items === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: items === undefined ? undefined : JSON.stringify(items),
          signal: AbortSignal.timeout(10_000),
        });
        const text = await response.text();
        if (response.status !== 200) {
          result.refused.push(`${response.status} ${text.slice(0, 200)}`);
          continue;
        }
        acknowledge(options.acked, id, (JSON.parse(text) as { id: string }).id);
        result.acknowledged += 1;
        if (result.acknowledged >= enough) enoughAcked();
      } catch {
        // The server is gone (or going): this call was never acknowledged.
        result.unanswered += 1;
      }
    }
  };
  await Promise.all([killing, ...Array.from({ length: options.workers }, worker)]);
  return result;
}

/** What the check after a restart found. */
export interface PresenceReport {
  acknowledged: number;
  present: number;
  /** Acknowledged event ids missing from their chain. */
  lost: string[];
  /** Prescriptions whose verify answer did not pass `logs_check_passed` (or was not a 200). */
  broken: string[];
  /** Events stored beyond the create event and the acknowledged ones: cut off before the answer. */
  unacknowledgedRecorded: number;
}

interface VerifyAnswer {
  valid: boolean;
  events: { id: string }[];
  tampering_detection_result: { logs_check_passed: boolean };
}

/**
 * Verifies every link at the server at `url` (the variant with transactions) and compares each
 * chain with what was acknowledged: the harness's one definition of "lost".
 */
export async function checkAcknowledged(
  url: string,
  token: string,
  links: ReadonlyMap<string, string>,
  acked: Acknowledged,
): Promise<PresenceReport> {
  const report: PresenceReport = {
    acknowledged: 0,
    present: 0,
    lost: [],
    broken: [],
    unacknowledgedRecorded: 0,
  };
  for (const [id, link] of links) {
    const expected = acked.get(id) ?? new Set<string>();
    report.acknowledged += expected.size;
    const response = await fetch(`${url}/ePrescription/verify`, {
      method: 'POST',
      headers: { authorization: `Bearer acs:${token}`, 'content-type': 'text/plain' },
      body: link,
    });
    if (response.status !== 200) {
      // A prescription the store no longer knows: everything acknowledged on it is lost.
      report.broken.push(`${id}: verify answered ${response.status}`);
      report.lost.push(...expected);
      continue;
    }
    const answer = (await response.json()) as VerifyAnswer;
    if (!answer.tampering_detection_result.logs_check_passed || !answer.valid) {
      report.broken.push(`${id}: logs_check_passed or valid is false`);
    }
    const stored = new Set(answer.events.map((e) => e.id));
    for (const eventId of expected) {
      if (stored.has(eventId)) report.present += 1;
      else report.lost.push(eventId);
    }
    // Every stored event but the create event and the acknowledged ones.
    const extra = [...stored].filter((eventId) => !expected.has(eventId)).length - 1;
    report.unacknowledgedRecorded += Math.max(0, extra);
  }
  return report;
}

/** Milliseconds since `start` (from `performance.now()`). */
export function since(start: number): number {
  return performance.now() - start;
}
