/**
 * Attack: someone with file access to the data directory takes the private key of a leaf from
 * `pki/leaves/` and, with write access to the store, appends a full dispensation dated 18 minutes
 * before the prescription's create event — inside that leaf's window, so its signature and
 * certificate chain check out — with hashes, links and head consistent (as `test/tamper/` does).
 * Time never runs backwards along a chain: verify reports `logs_check_passed: false`, and every
 * change of the prescription is refused. Runs on SQLite, and on PostgreSQL with
 * `ERX_TEST_ENGINE=postgres`.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseEventBody, parseTimestamp } from '../../src/ledger/index.js';
import { DirectoryPkiStorage, credentialFromPem, openPki, x509 } from '../../src/pki/index.js';
import type { SigningKey } from '../../src/pki/index.js';
import { keyPaths } from '../../src/server/runtime.js';
import { createPrescription, verify } from '../support/e2e.js';
import { eventSignedWith } from '../support/ledger/backdate.js';
import { timestampAt } from '../support/ledger/chain.js';
import { startTestServer } from '../support/server.js';
import type { TestServer } from '../support/server.js';
import { withRows } from '../tamper/server-rows.js';

const MINUTE = 60_000;

/** The leaf keys an attacker copies from `<dataDir>/pki`, each with the `x5c` erx would send. */
function stolenLeafKeys(dataDir: string): Promise<SigningKey[]> {
  const pki = keyPaths(dataDir).pki;
  const root = new x509.X509Certificate(readFileSync(join(pki, 'root-cert.pem'), 'utf8'));
  const rootB64 = Buffer.from(root.rawData).toString('base64');
  const folder = join(pki, 'leaves');
  const names = readdirSync(folder).filter((name) => name.endsWith('-key.pem'));
  return Promise.all(
    names.map(async (name): Promise<SigningKey> => {
      const leaf = await credentialFromPem({
        certificatePem: readFileSync(join(folder, name.replace(/-key\.pem$/, '-cert.pem')), 'utf8'),
        privateKeyPem: readFileSync(join(folder, name), 'utf8'),
      });
      return {
        privateKey: leaf.privateKey,
        x5c: [Buffer.from(leaf.der).toString('base64'), rootB64],
        notBefore: leaf.certificate.notBefore,
        notAfter: leaf.certificate.notAfter,
      };
    }),
  );
}

describe('a full dispensation dated before the create event, signed with a stolen leaf key', () => {
  let dataDir: string;
  let server: TestServer;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'erx-backdated-'));
    // The instance has signed with its current leaf for an hour, as a running one has.
    const pki = await openPki({ storage: new DirectoryPkiStorage(keyPaths(dataDir).pki) });
    await pki.signer.keyAt(new Date(Date.now() - 60 * MINUTE));
    server = await startTestServer({ dataDir });
  });

  after(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  test('verify reports logs_check_passed false, and no change is possible', async () => {
    const rx = await createPrescription(server);
    const untouched = await verify(server, rx.link, server.pharmacist.token);
    assert.equal(untouched.valid, true);
    assert.equal(untouched.tampering_detection_result.logs_check_passed, true);

    let forged: { body: string; signature: string; hash: string; id: string } | undefined;
    await withRows(server, async (rows) => {
      const [create] = await rows.events(rx.id);
      assert.ok(create);
      const createdAt = parseTimestamp(JSON.parse(create.body).timestamp as string).date;
      const at = new Date(createdAt.getTime() - 18 * MINUTE);
      const key = (await stolenLeafKeys(dataDir)).find(
        (k) => k.notBefore <= at && at <= k.notAfter,
      );
      assert.ok(key, 'a leaf in pki/leaves was valid 18 minutes before the create event');
      const event = await eventSignedWith(
        create,
        {
          reference: rx.id,
          timestamp: timestampAt(at),
          actor: server.pharmacist.sub,
          actorName: server.pharmacist.name,
        },
        key,
      );
      await rows.insertEvent({
        prescription_id: rx.id,
        seq: event.seq,
        id: event.id,
        parent_hash: event.parentHash,
        body: event.body,
        hash: event.hash,
        signature: event.signature,
      });
      await rows.setPrescription(rx.id, 'head_hash', event.hash);
      forged = event;
    });

    // The forged event's signature and certificate chain are sound: only its time gives it away.
    const parsed = parseEventBody(forged!.body);
    assert.ok(parsed.ok);
    assert.equal(
      await server.runtime.service.deps.verifier.verify(forged!, parsed.body),
      undefined,
    );

    const answer = await verify(server, rx.link, server.pharmacist.token);
    assert.equal(answer.tampering_detection_result.logs_check_passed, false);
    assert.equal(answer.valid, false);
    assert.equal((await verify(server, rx.link)).valid, false);

    const change = await server.request('POST', `/ePrescription/dispense/${rx.id}?force=true`, {
      token: server.pharmacist.token,
      contentType: 'application/json',
    });
    assert.equal(change.status, 409, change.text);
    assert.equal(change.json.cause?.Code, 'ledger_corrupt');
  });
});
