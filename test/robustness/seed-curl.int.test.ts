/**
 * The seed's curl calls work verbatim: verify with `--data @link.txt` under
 * `Content-Type: application/json`, and a full dispense with that header and no body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { samplePrescription } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';

const server = useTestServer();

// curl runs as a child process while this process serves: it must not block the event loop.
async function curl(args: string[]): Promise<{ status: number; body: string }> {
  const { stdout: out } = await promisify(execFile)(
    'curl',
    ['--silent', '--write-out', '\n%{http_code}', ...args],
    { encoding: 'utf8' },
  );
  const cut = out.lastIndexOf('\n');
  return { status: Number(out.slice(cut + 1)), body: out.slice(0, cut) };
}

test('verify with -d @link.txt and a full dispense without a body, as the seed shows them', async () => {
  const created = await server.request('POST', '/ePrescription/create?output-format=data', {
    token: server.doctor.token,
    contentType: 'application/json',
    body: JSON.stringify(samplePrescription()),
  });
  assert.equal(created.status, 200);
  const linkFile = join(server.dataDir, 'link.txt');
  writeFileSync(linkFile, `${created.json.SignedPrescriptionData}\n`);
  const id = created.json.prescription_id as string;

  const verify = await curl([
    '--location',
    `${server.url}/ePrescription/verify`,
    '--header',
    'Content-Type: application/json',
    '--data',
    `@${linkFile}`,
  ]);
  assert.equal(verify.status, 200, verify.body);
  assert.equal(JSON.parse(verify.body).valid, true);

  const dispense = await curl([
    '--location',
    '--request',
    'POST',
    `${server.url}/ePrescription/dispense/${id}`,
    '--header',
    `Authorization: Bearer acs:${server.pharmacist.token}`,
    '--header',
    'Content-Type: application/json',
  ]);
  assert.equal(dispense.status, 200, dispense.body);
  assert.equal(JSON.parse(dispense.body).type, 'full_dispense');

  const again = await curl([
    '--location',
    `${server.url}/ePrescription/verify`,
    '--header',
    'Content-Type: application/json',
    '--data',
    `@${linkFile}`,
  ]);
  assert.equal(JSON.parse(again.body).dispensed, true);
});
