/**
 * Secrets: tokens, client secrets, private keys and patient data never appear in
 * the logs or in error bodies. A full flow (tokens, create, verify with and without a token,
 * dispense, lock, unlock, cancel, revoke, and refusals with bad credentials and bad tokens) runs
 * against `erx serve` at log level debug; then all of its output and every error body are
 * searched for each secret. Key files must be 0600 in 0700 directories, and the web page carries
 * its security headers.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadConfig } from '../../src/config/index.js';
import { openRuntime } from '../../src/server/runtime.js';
import { startChildServer } from '../support/child-server.js';
import type { ChildServer } from '../support/child-server.js';
import { MED_A, samplePrescription } from '../support/fixtures.js';
import { send } from '../support/http.js';
import type { Answer, RequestOptions } from '../support/http.js';

const FORM = 'application/x-www-form-urlencoded';
/** Patient data distinctive enough that a match is a leak, not a coincidence. */
const PATIENT = { FName: 'Zephyrine', LName: 'Quattlebaum', Street: 'Geheimweg 77' };

interface Client {
  id: string;
  secret: string;
}

/** Lines of the base64 body of each PEM file holding a private key under `dir`. */
function privateKeyLines(dir: string): string[] {
  const lines: string[] = [];
  for (const file of walk(dir)) {
    if (statSync(file).isDirectory()) continue;
    const text = readFileSync(file, 'utf8');
    if (!text.includes('PRIVATE KEY')) continue;
    lines.push(...text.split('\n').filter((l) => l.length >= 16 && !l.startsWith('-----')));
  }
  return lines;
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? [path, ...walk(path)] : [path];
  });
}

describe('secrets stay out of logs and error bodies', () => {
  let dataDir: string;
  let erx: ChildServer;
  const clients: Record<'doctor' | 'pharmacist' | 'pharmacist2', Client> = {
    doctor: { id: 'sec-doctor', secret: '' },
    pharmacist: { id: 'sec-pharma', secret: '' },
    pharmacist2: { id: 'sec-pharma2', secret: '' },
  };
  /** Every secret the flow handled, with what it is. */
  const secrets = new Map<string, string>();
  const errorBodies: string[] = [];
  let calls = 0;
  let flowLink = '';

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'erx-secrets-'));
    // Registered clients mean no demo clients: the first-start banner prints demo secrets on
    // purpose (a trial's console), which is not what this suite is about.
    const setup = await openRuntime(loadConfig({ ERX_DATA_DIR: dataDir, PORT: '0' }));
    const roles = { doctor: 'prescriber', pharmacist: 'pharmacist', pharmacist2: 'pharmacist' };
    for (const [key, client] of Object.entries(clients)) {
      const added = await setup.tokens!.addClient({
        clientId: client.id,
        role: roles[key as keyof typeof roles],
        name: `Name ${key}`,
        sub: `HIN|${client.id}`,
      });
      client.secret = added.secret!;
      secrets.set(client.secret, `client secret of ${client.id}`);
    }
    await setup.close();
    erx = await startChildServer({
      ERX_DATA_DIR: dataDir,
      ERX_LOG_LEVEL: 'debug',
      ERX_PRESCRIPTION_URL: 'http://erx.test/rx/',
    });
  });
  after(async () => {
    await erx?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function call(method: string, path: string, o: RequestOptions = {}): Promise<Answer> {
    calls += 1;
    const answer = await send(erx.url, method, path, o);
    if (answer.status >= 400) errorBodies.push(answer.text);
    return answer;
  }

  async function expect(status: number, answer: Promise<Answer>): Promise<Answer> {
    const a = await answer;
    assert.equal(a.status, status, a.text);
    return a;
  }

  const form = (fields: Record<string, string>): RequestOptions => ({
    body: new URLSearchParams(fields).toString(),
    contentType: FORM,
  });
  const jsonBody = (value: unknown, extra: RequestOptions = {}): RequestOptions => ({
    ...extra,
    body: JSON.stringify(value),
    contentType: 'application/json',
  });
  const sentSecret = (what: string): string => {
    const value = randomBytes(32).toString('base64url');
    secrets.set(value, what);
    return value;
  };

  async function token(client: Client, basic = false): Promise<string> {
    const options = basic
      ? {
          ...form({ grant_type: 'client_credentials' }),
          authorization: `Basic ${Buffer.from(`${client.id}:${client.secret}`).toString('base64')}`,
        }
      : form({
          grant_type: 'client_credentials',
          client_id: client.id,
          client_secret: client.secret,
        });
    const answer = await expect(200, call('POST', '/REST/v1/OAuth/token', options));
    const value = answer.json.access_token as string;
    secrets.set(value, `access token of ${client.id}`);
    return value;
  }

  it('runs the full flow, with refusals', async () => {
    const { doctor, pharmacist, pharmacist2 } = clients;
    const doc = await token(doctor);
    const ph = await token(pharmacist, true);
    const ph2 = await token(pharmacist2);
    await token(doctor, true);

    // Bad credentials and the token check.
    const guess = sentSecret('guessed client secret');
    await expect(
      401,
      call(
        'POST',
        '/REST/v1/OAuth/token',
        form({ grant_type: 'client_credentials', client_id: doctor.id, client_secret: guess }),
      ),
    );
    await expect(
      401,
      call('POST', '/REST/v1/OAuth/token', {
        ...form({ grant_type: 'client_credentials' }),
        authorization: `Basic ${Buffer.from(`${pharmacist.id}:${guess}`).toString('base64')}`,
      }),
    );
    await expect(
      400,
      call(
        'POST',
        '/REST/v1/OAuth/token',
        form({ grant_type: 'password', client_id: doctor.id, client_secret: doctor.secret }),
      ),
    );
    await expect(
      200,
      call(
        'POST',
        '/REST/v1/OAuth/GetTokenInfo',
        form({ token: ph, client_id: doctor.id, client_secret: doctor.secret }),
      ),
    );
    await expect(
      200,
      call(
        'POST',
        '/REST/v1/OAuth/GetTokenInfo',
        form({
          token: sentSecret('unknown token (token check)'),
          client_id: doctor.id,
          client_secret: doctor.secret,
        }),
      ),
    );
    await expect(
      401,
      call(
        'POST',
        '/REST/v1/OAuth/GetTokenInfo',
        form({ token: ph, client_id: doctor.id, client_secret: guess }),
      ),
    );

    // Create, with refusals that carry the patient's data.
    const document = samplePrescription({
      Patient: { ...PATIENT, BDt: '1971-02-03', Gender: 2, Zip: '8001' },
    });
    const created = await expect(
      200,
      call('POST', '/ePrescription/create?output-format=data', jsonBody(document, { token: doc })),
    );
    const link = created.json.SignedPrescriptionData as string;
    flowLink = link;
    const id = created.json.prescription_id as string;
    await expect(
      409,
      call('POST', '/ePrescription/create?output-format=data', jsonBody(document, { token: doc })),
    );
    const invalid = samplePrescription({
      Patient: { ...PATIENT, BDt: '1971-02-03', Zip: PATIENT.Street },
    });
    await expect(
      400,
      call('POST', '/ePrescription/create?output-format=data', jsonBody(invalid, { token: doc })),
    );
    await expect(
      403,
      call(
        'POST',
        '/ePrescription/create?output-format=data',
        jsonBody(samplePrescription({ Patient: { ...PATIENT, BDt: '1971-02-03' } }), { token: ph }),
      ),
    );
    await expect(
      200,
      call(
        'POST',
        '/ePrescription/create?output-format=svg',
        jsonBody(samplePrescription(), { token: doc }),
      ),
    );

    // Verify with and without a token, and with bad ones.
    const verify = (o: RequestOptions): Promise<Answer> =>
      call('POST', '/ePrescription/verify', { body: link, contentType: 'text/plain', ...o });
    await expect(200, verify({}));
    await expect(200, verify({ authorization: `Bearer oauth:${ph}` }));
    await expect(401, verify({ token: sentSecret('unknown token (verify)') }));
    await expect(401, verify({ authorization: `Bearer xyz:${ph}` }));
    await expect(401, verify({ authorization: `Bearer ${doc}` }));
    await expect(
      401,
      verify({
        authorization: `Basic ${Buffer.from(`${doctor.id}:${doctor.secret}`).toString('base64')}`,
      }),
    );
    await expect(
      400,
      call('POST', '/ePrescription/verify', {
        body: link.replace('CHMED16A1', 'CHMED16A1!'),
        contentType: 'text/plain',
      }),
    );

    // Dispense, lock, unlock, cancel, revoke, and refusals on the way.
    const post = (path: string, t: string, o: RequestOptions = {}): Promise<Answer> =>
      call('POST', path, { ...o, token: t });
    const partial = await expect(
      200,
      post(`/ePrescription/dispense/${id}`, ph, jsonBody([{ id: MED_A, amount: 1 }])),
    );
    await expect(
      403,
      post(`/ePrescription/dispense/${id}`, doc, jsonBody([{ id: MED_A, amount: 1 }])),
    );
    await expect(
      400,
      post(`/ePrescription/dispense/${id}`, ph, jsonBody([{ id: PATIENT.LName, amount: 1 }])),
    );
    await expect(
      200,
      post(
        `/ePrescription/lock/${id}?reason=${encodeURIComponent(`wartet: ${PATIENT.FName} ${PATIENT.LName}`)}`,
        ph,
      ),
    );
    await expect(409, post(`/ePrescription/lock/${id}?reason=${PATIENT.LName}`, ph2));
    await expect(
      423,
      post(`/ePrescription/dispense/${id}`, ph2, { contentType: 'application/json' }),
    );
    await expect(403, post(`/ePrescription/unlock/${id}`, ph2));
    await expect(200, post(`/ePrescription/unlock/${id}`, ph));
    await expect(403, post(`/ePrescription/cancel/${id}/event/${partial.json.id}`, ph2));
    await expect(200, post(`/ePrescription/cancel/${id}/event/${partial.json.id}`, ph));
    await expect(
      200,
      post(`/ePrescription/dispense/${id}`, ph, { contentType: 'application/json' }),
    );
    await expect(
      403,
      post(`/ePrescription/dispense/${id}`, ph, { contentType: 'application/json' }),
    );
    await expect(403, post(`/ePrescription/revoke/${id}`, ph));
    await expect(200, post(`/ePrescription/revoke/${id}`, doc));
    await expect(409, post(`/ePrescription/revoke/${id}`, doc));
    await expect(404, post('/ePrescription/revoke/00000000-0000-4000-8000-000000000000', doc));
    await expect(404, call('GET', `/no/such/route?token=${ph}`));
    await expect(
      413,
      post(`/ePrescription/dispense/${id}`, ph, {
        body: 'x'.repeat(70_000),
        contentType: 'application/json',
      }),
    );
    assert.ok(calls >= 40, `${calls} calls`);
  });

  it('serves the web page with its security headers, and API answers with nosniff', async () => {
    const pages = ['/app/', '/rx/'];
    const served: string[] = [];
    for (const path of pages) {
      const page = await call('GET', path);
      if (page.status === 404) continue;
      assert.equal(page.status, 200, path);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      const csp = page.headers.get('content-security-policy') ?? '';
      assert.match(csp, /(^|;)\s*default-src 'self'(;|$)/, `${path} CSP: ${csp}`);
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/, `${path} CSP: ${csp}`);
      assert.equal(page.headers.get('x-content-type-options'), 'nosniff', path);
      const framing =
        page.headers.get('x-frame-options') === 'DENY' || /frame-ancestors 'none'/.test(csp);
      assert.ok(framing, `${path} may be framed`);
      served.push(path);
    }
    // The page is built by `npm run build`; without a build the API runs alone.
    const built = served.length === pages.length;
    for (const answer of [
      await call('POST', '/ePrescription/verify', { body: flowLink, contentType: 'text/plain' }),
      await call('POST', '/ePrescription/verify', { body: 'nonsense', contentType: 'text/plain' }),
      await call('GET', '/no/such/route'),
    ]) {
      assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', answer.text);
    }
    console.log(
      `[security] headers: web page ${built ? `served (${served.join(', ')}): CSP default-src 'self', nosniff, no framing` : 'not built: not served'}; API answers nosniff`,
    );
  });

  it('finds no secret in the logs or the error bodies', async () => {
    await erx.stop();
    const output = erx.output();
    const logLines = output.split('\n').filter((l) => l.startsWith('{'));
    // The logs are there to be searched: one line per request at least, debug level on.
    assert.ok(logLines.length >= calls, `${logLines.length} log lines for ${calls} calls`);

    const ring = JSON.parse(readFileSync(join(dataDir, 'link-keys', 'keyring.json'), 'utf8')) as {
      keys: { privateKey?: string }[];
    };
    for (const key of ring.keys)
      if (key.privateKey) secrets.set(key.privateKey, 'link private key');
    const pemLines = privateKeyLines(join(dataDir, 'pki'));
    assert.ok(pemLines.length > 0, 'no private key PEM in the data directory');
    for (const line of pemLines) secrets.set(line, 'ledger private key (PEM line)');
    secrets.set(PATIENT.FName, 'patient first name');
    secrets.set(PATIENT.LName, 'patient last name');
    secrets.set(PATIENT.Street, 'patient street');
    const data = flowLink.slice(flowLink.indexOf('CHMED16A1') + 9, flowLink.indexOf('&i='));
    secrets.set(data.slice(0, 48), 'prescription document (link data)');
    secrets.set(data.slice(-48), 'prescription document (link data, end)');

    const leaks = (text: string): string[] =>
      [...secrets].filter(([value]) => text.includes(value)).map(([, what]) => what);
    assert.deepEqual(leaks(output), [], 'secrets in the server output');
    const bodies = errorBodies.join('\n');
    assert.deepEqual(leaks(bodies), [], 'secrets in error bodies');
    console.log(
      `[security] secrets: ${calls} calls, ${logLines.length} log lines (${output.length} bytes) ` +
        `and ${errorBodies.length} error bodies searched for ${secrets.size} secrets ` +
        `(${pemLines.length} PEM lines): 0 found`,
    );
  });

  it('keeps key files 0600 and key directories 0700', () => {
    const checked: string[] = [];
    for (const dir of [join(dataDir, 'link-keys'), join(dataDir, 'pki')]) {
      for (const path of [dir, ...walk(dir)]) {
        const stat = statSync(path);
        const mode = stat.mode & 0o777;
        const name = path.slice(dataDir.length + 1);
        if (stat.isDirectory()) assert.equal(mode, 0o700, `${name} is ${mode.toString(8)}`);
        else if (
          readFileSync(path, 'utf8').includes('PRIVATE KEY') ||
          name.endsWith('keyring.json')
        )
          assert.equal(mode, 0o600, `${name} is ${mode.toString(8)}`);
        else continue;
        checked.push(`${name} ${mode.toString(8)}`);
      }
    }
    assert.ok(checked.length >= 5, checked.join(', '));
    console.log(`[security] key modes: ${checked.join(', ')}`);
  });
});
