/**
 * The client commands of the CLI against a running erx (`ERX_URL`, `ERX_TOKEN`): `erx dispense
 * --force --reason` records the reason with what it overrode, a reason without force is the
 * service's 400 and appends nothing, and `erx verify` keeps stdout the JSON answer while writing
 * the medicament table (with the expiry and the lock holder) to stderr, for the variant with
 * transactions only; given a PNG of the stacked part codes of a CHMED23A link, it reads them all.
 *
 * The CLI takes seconds to start on a busy machine: every
 * run is started at once, before the tests, and each test reads its own.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { joinPartLinks } from '../../src/link/parts.js';
import { decodeQrCodesPng } from '../../src/qr/decode-png.js';
import { largeChmed23Prescription } from '../support/chmed23a-fixtures.js';
import { MED_A } from '../support/fixtures.js';
import { calls, createPrescription, eventCount, expectationsOn, verify } from '../support/e2e.js';
import type { Created, JsonObject } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import { ERX_CLI } from '../support/modules.js';

interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `erx <args>` from the sources with `ERX_URL` set to the server and `ERX_TOKEN` to `token`
 * (none: empty). Asynchronous, since the server answering it runs in this process.
 */
function erx(url: string, args: string[], token = ''): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...ERX_CLI, ...args],
      { env: { ...process.env, ERX_URL: url, ERX_TOKEN: token }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

/** The cells of a table line: columns are two spaces apart at least. */
const cellsOf = (line: string): string[] => line.trim().split(/\s{2,}/);

describe('erx dispense and erx verify', () => {
  const server = useTestServer();
  const call = calls(server);
  const { appends } = expectationsOn(server);
  // MED_A has one package prescribed: two are forced over quantity_exceeded.
  const reason = 'Ferien & Reise: 2 Packungen';
  let forced: Created;
  let unforced: Created;
  let served: Created;
  const counts = new Map<string, number>();
  let runs: Record<'forced' | 'unforced' | 'verify' | 'anonymous' | 'stacked', CliRun>;
  /** A PNG of the stacked part codes of a CHMED23A prescription, as create draws it. */
  let stacked = '';

  before(async () => {
    [forced, unforced, served] = await Promise.all([
      createPrescription(server),
      createPrescription(server),
      createPrescription(server),
    ]);
    await appends(
      served.id,
      call.dispenseItems(served.id, server.pharmacist, [{ id: MED_A, amount: 1 }]),
      'partial_dispense',
    );
    await appends(served.id, call.lock(served.id, server.pharmacist2), 'lock');
    for (const rx of [forced, unforced]) counts.set(rx.id, await eventCount(server, rx.id));
    const token = server.pharmacist.token;
    const image = await server.request('POST', '/ePrescription/create?output-format=qrcode', {
      token: server.doctor.token,
      body: JSON.stringify(largeChmed23Prescription()),
      contentType: 'application/json',
    });
    assert.equal(image.status, 200, image.text);
    stacked = join(mkdtempSync(join(tmpdir(), 'erx-cli-')), 'parts.png');
    writeFileSync(stacked, image.bytes);
    const [forcedRun, unforcedRun, verifyRun, anonymousRun, stackedRun] = await Promise.all([
      erx(
        server.url,
        ['dispense', forced.id, '--item', `${MED_A}:2`, '--force', '--reason', reason],
        token,
      ),
      erx(server.url, ['dispense', unforced.id, '--item', `${MED_A}:1`, '--reason', 'x'], token),
      erx(server.url, ['verify', served.link], token),
      erx(server.url, ['verify', served.link]),
      erx(server.url, ['verify', stacked]),
    ]);
    runs = {
      forced: forcedRun,
      unforced: unforcedRun,
      verify: verifyRun,
      anonymous: anonymousRun,
      stacked: stackedRun,
    };
  });

  it('dispense --force --reason records the reason and what force overrode', async () => {
    const run = runs.forced;
    assert.equal(run.status, 0, run.stderr);
    const event = JSON.parse(run.stdout) as JsonObject;
    assert.equal(event.type, 'partial_dispense');
    assert.deepEqual(event.event_data, {
      force: true,
      overrides: ['quantity_exceeded'],
      reason,
    });
    assert.equal(await eventCount(server, forced.id), counts.get(forced.id)! + 1);
    const answer = await verify(server, forced.link, server.pharmacist.token);
    const stored = answer.events.find((e: JsonObject) => e.id === event.id);
    assert.deepEqual(stored.event_data, event.event_data);
  });

  it('dispense --reason without --force is the service’s 400, and appends nothing', async () => {
    const run = runs.unforced;
    assert.equal(run.status, 1, run.stdout);
    assert.match(run.stderr, /^erx: 400 bad_request: /m);
    assert.match(run.stderr, /\/reason: /);
    assert.equal(run.stdout, '');
    assert.equal(await eventCount(server, unforced.id), counts.get(unforced.id));
  });

  it('verify prints the JSON to stdout and the medicament table to stderr', async () => {
    const run = runs.verify;
    assert.equal(run.status, 0, run.stderr);
    // stdout is the answer alone, as the API gives it.
    const answer = JSON.parse(run.stdout) as JsonObject;
    assert.deepEqual(answer, await verify(server, served.link, server.pharmacist.token));

    const lines = run.stderr.trimEnd().split('\n');
    assert.deepEqual(cellsOf(lines[0]!), [
      'id',
      'prescribed',
      'dispensed',
      'remaining',
      'substitution',
    ]);
    const rows = answer.medicaments.map((m: JsonObject) => [
      m.id,
      String(m.prescribed),
      String(m.dispensed),
      String(m.remaining),
      m.substitution_allowed ? 'allowed' : 'not allowed',
    ]);
    assert.deepEqual(lines.slice(1, 1 + rows.length).map(cellsOf), rows);
    // The dispensed package shows in the table.
    const medA = cellsOf(lines.find((l) => l.startsWith(MED_A))!);
    assert.equal(medA[2], '1');
    assert.deepEqual(lines.slice(1 + rows.length), [
      `expires_at: ${answer.expires_at} (not expired)`,
      `locked_by: ${server.pharmacist2.name}`,
    ]);
  });

  it('verify without a token prints the short answer and no table', async () => {
    const run = runs.anonymous;
    assert.equal(run.status, 0, run.stderr);
    const answer = JSON.parse(run.stdout) as JsonObject;
    assert.deepEqual(answer, await verify(server, served.link));
    assert.equal('medicaments' in answer, false);
    assert.equal(run.stderr, '');
  });

  it('verify reads every part code of a stacked PNG and verifies the link they make', async () => {
    const run = runs.stacked;
    assert.equal(run.status, 0, run.stderr);
    const answer = JSON.parse(run.stdout) as JsonObject;
    assert.equal(answer.valid, true, run.stdout);
    const parts = decodeQrCodesPng(readFileSync(stacked), 100);
    assert.ok(parts.length >= 2, `${parts.length} codes`);
    assert.deepEqual(answer, await verify(server, joinPartLinks(parts)));
  });
});
