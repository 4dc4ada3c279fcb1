/**
 * The reading commands of the CLI against a running erx: `erx prescriptions --state revoked`
 * prints the prescriber's revoked prescriptions, one JSON line each; `erx events` prints the
 * caller's events and the cursor to resume from, and `erx events --after <that cursor>` only what
 * came after; `erx events --follow` prints an event appended while it runs, within seconds, and on
 * SIGINT stops cleanly with the cursor after it.
 *
 * The CLI takes seconds to start on a busy machine: the
 * runs that do not depend on each other start at once.
 */
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { before, describe, it } from 'node:test';
import { calls, createPrescription, expectationsOn } from '../support/e2e.js';
import type { Created, JsonObject } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import { ERX_CLI } from '../support/modules.js';

interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** The environment of a CLI run against `url` with `token`. */
const envOf = (url: string, token: string) => ({ ...process.env, ERX_URL: url, ERX_TOKEN: token });

/** Runs `erx <args>` to its end. */
function erx(url: string, args: string[], token: string): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...ERX_CLI, ...args],
      { env: envOf(url, token), timeout: 60_000 },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

/** The JSON lines of a run's stdout. */
const linesOf = (stdout: string): JsonObject[] =>
  stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JsonObject);

/** The cursors a run printed on stderr (`next <cursor>`), in order. */
const nextsOf = (stderr: string): string[] =>
  [...stderr.matchAll(/^next (\S+)$/gm)].map((m) => m[1]!);

/** Waits until `holds()` or fails after `ms`. */
async function waitFor(holds: () => boolean, ms: number, what: string): Promise<void> {
  const until = Date.now() + ms;
  while (!holds()) {
    assert.ok(Date.now() < until, `${what} did not happen within ${ms} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe('erx prescriptions and erx events', () => {
  const server = useTestServer();
  const call = calls(server);
  const { appends } = expectationsOn(server);
  let open: Created;
  let revoked: Created;
  /** Dispensed while `erx events --follow` runs. */
  let served: Created;
  let runs: Record<'revoked' | 'events', CliRun>;

  before(async () => {
    [open, revoked, served] = await Promise.all([
      createPrescription(server),
      createPrescription(server),
      createPrescription(server),
    ]);
    await appends(revoked.id, call.revoke(revoked.id, server.doctor), 'revoke');
    const token = server.doctor.token;
    const [revokedRun, eventsRun] = await Promise.all([
      erx(server.url, ['prescriptions', '--state', 'revoked'], token),
      erx(server.url, ['events'], token),
    ]);
    runs = { revoked: revokedRun, events: eventsRun };
  });

  it('erx prescriptions --state revoked prints the revoked one', () => {
    const run = runs.revoked;
    assert.equal(run.status, 0, run.stderr);
    const lines = linesOf(run.stdout);
    assert.deepEqual(
      lines.map((l) => l.prescription_id),
      [revoked.id],
    );
    assert.equal(lines[0]!.revoked, true);
    assert.deepEqual(nextsOf(run.stderr), []);
  });

  it('erx events prints the events and a cursor; --after it prints only newer ones', async () => {
    const run = runs.events;
    assert.equal(run.status, 0, run.stderr);
    const lines = linesOf(run.stdout);
    const events = lines.map((l) => `${l.prescription_id} ${l.event.type}`).sort();
    assert.deepEqual(
      events,
      [
        `${open.id} create`,
        `${revoked.id} create`,
        `${revoked.id} revoke`,
        `${served.id} create`,
      ].sort(),
    );
    const [cursor] = nextsOf(run.stderr);
    assert.ok(cursor !== undefined, run.stderr);

    const lock = await appends(open.id, call.lock(open.id, server.doctor), 'lock');
    const after = await erx(server.url, ['events', '--after', cursor], server.doctor.token);
    assert.equal(after.status, 0, after.stderr);
    assert.deepEqual(
      linesOf(after.stdout).map((l) => l.event.id),
      [lock.id],
    );
    const [resume] = nextsOf(after.stderr);
    assert.ok(resume !== undefined && resume !== cursor, after.stderr);
  });

  it('erx events --follow prints an event appended while it runs, and stops on SIGINT', async () => {
    const child = spawn(process.execPath, [...ERX_CLI, 'events', '--follow'], {
      env: envOf(server.url, server.pharmacist.token),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    const exited = once(child, 'exit');
    try {
      // The first cursor is printed once the events so far are read (a start takes seconds).
      await waitFor(() => nextsOf(stderr).length > 0, 30_000, 'the first cursor');
      const dispensed = await appends(served.id, call.full(served.id), 'full_dispense');
      await waitFor(() => stdout.includes(dispensed.id), 5_000, 'the dispense event');
      const line = linesOf(stdout).find((l) => l.event.id === dispensed.id)!;
      child.kill('SIGINT');
      const [code] = await exited;
      assert.equal(code, 0, stderr);
      assert.equal(nextsOf(stderr).at(-1), line.cursor);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });
});
