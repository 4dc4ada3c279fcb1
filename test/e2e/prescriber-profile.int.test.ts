/**
 * The prescriber profile end to end, on the engine of the run (`ERX_TEST_ENGINE`): `erx clients
 * add … --gln …` and `erx clients profile` (run as the operator runs them, beside the serving erx,
 * on its store) set and update it, refuse a bad GLN or ZSR and a pharmacist with exit code 1, and
 * `GET /ePrescription/me` answers it to the signed-in prescriber; the client's secret keeps
 * working throughout, since the profile is not part of what the secret hash is bound to.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { assertError } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { ERX_CLI } from '../support/modules.js';

interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs `erx <args>` from the sources on `server`'s store (data directory and database). */
function erx(server: TestServer, args: string[]): Promise<CliRun> {
  const url = server.runtime.config.databaseUrl;
  const env: NodeJS.ProcessEnv = { ...process.env, ERX_DATA_DIR: server.dataDir };
  if (url !== undefined) env.ERX_DATABASE_URL = url;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...ERX_CLI, ...args],
      { env, timeout: 180_000 },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ status, stdout, stderr });
      },
    );
  });
}

const SECRET = 'praxis-secret-0123456789';
/** A GLN with a valid check digit, and the same with the last digit off by one. */
const GLN = '7601000000002';
const BAD_GLN = '7601000000003';

describe('prescriber profile: erx clients and GET /ePrescription/me', () => {
  const server = useTestServer();
  const me = (token?: string) => server.request('GET', '/ePrescription/me', { token });

  it('answers 401 without a token, and a pharmacist without a profile', async () => {
    assertError(await me(), 401, 'unauthorized');
    const answer = await me(server.pharmacist.token);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json, {
      client_id: server.pharmacist.clientId,
      role: 'pharmacist',
      sub: server.pharmacist.sub,
      name: server.pharmacist.name,
      document_format: 'CHMED16A',
    });
    const doctor = await me(server.doctor.token);
    assert.equal(doctor.json.role, 'prescriber');
    assert.equal('profile' in doctor.json, false);
  });

  it('registers a prescriber with a profile, answers it, updates it, the secret unchanged', async () => {
    const added = await erx(server, [
      'clients',
      'add',
      '--id',
      'praxis',
      '--secret',
      SECRET,
      '--role',
      'prescriber',
      '--name',
      'Dr. med. Anna Muster',
      '--sub',
      'HIN|praxis',
      '--first-name',
      'Anna',
      '--last-name',
      'Muster',
      '--gln',
      GLN,
      '--zsr',
      'a1234.56',
      '--practice-name',
      'Praxis am See',
      '--street',
      'Seestrasse 1',
      '--zip',
      '8000',
      '--city',
      'Zürich',
    ]);
    assert.equal(added.status, 0, added.stderr);
    assert.match(added.stdout, /ZSR: A123456/);
    const token = await server.tokenFor('praxis', SECRET);
    const answer = await me(token);
    assert.equal(answer.status, 200, answer.text);
    assert.deepEqual(answer.json, {
      client_id: 'praxis',
      role: 'prescriber',
      sub: 'HIN|praxis',
      name: 'Dr. med. Anna Muster',
      profile: {
        first_name: 'Anna',
        last_name: 'Muster',
        gln: GLN,
        zsr: 'A123456',
        practice: { name: 'Praxis am See', street: 'Seestrasse 1', zip: '8000', city: 'Zürich' },
      },
      document_format: 'CHMED16A',
    });

    const updated = await erx(server, ['clients', 'profile', 'praxis', '--phone', '044 000 00 00']);
    assert.equal(updated.status, 0, updated.stderr);
    // The same secret still gets a token: the profile is outside the secret's binding.
    const again = await me(await server.tokenFor('praxis', SECRET));
    assert.equal(again.json.profile.practice.phone, '044 000 00 00');
    assert.equal(again.json.profile.gln, GLN);

    const cleared = await erx(server, ['clients', 'profile', 'praxis', '--clear']);
    assert.equal(cleared.status, 0, cleared.stderr);
    const none = await me(await server.tokenFor('praxis', SECRET));
    assert.equal('profile' in none.json, false);
  });

  it('refuses a bad GLN or ZSR, a pharmacist and an unknown client with exit code 1', async () => {
    const doctor = server.doctor.clientId;
    const [badGln, badZsr, pharmacist, unknown, both] = await Promise.all([
      erx(server, [
        'clients',
        'profile',
        doctor,
        '--first-name',
        'A',
        '--last-name',
        'B',
        '--gln',
        BAD_GLN,
      ]),
      erx(server, ['clients', 'profile', doctor, '--zsr', 'A12-3456']),
      erx(server, ['clients', 'profile', server.pharmacist.clientId, '--gln', GLN]),
      erx(server, ['clients', 'profile', 'nobody', '--gln', GLN]),
      erx(server, ['clients', 'profile', doctor, '--clear', '--gln', GLN]),
    ]);
    assert.equal(badGln.status, 1);
    assert.match(badGln.stderr, /\/profile\/gln: the check digit does not match/);
    assert.equal(badZsr.status, 1);
    assert.match(badZsr.stderr, /\/profile\/zsr: must be one letter and six digits/);
    assert.equal(pharmacist.status, 1);
    assert.match(pharmacist.stderr, /Only a prescriber client has a profile/);
    assert.equal(unknown.status, 1);
    assert.match(unknown.stderr, /no client nobody/);
    assert.equal(both.status, 2);
    const still = await me(server.doctor.token);
    assert.equal('profile' in still.json, false);
  });
});
