/**
 * Receipts verified offline, k of n witnesses: a dispense answer's receipt, with the cosignatures
 * three test witnesses gave its checkpoint, verifies under the log key, the ledger root and k of
 * the witnesses; k not met, a witness key erx's witnesses did not sign with, a tampered inclusion
 * proof, checkpoint, cosignature or JWS, another log key and another root each fail, naming the
 * check. `erx receipt verify` does the same from the command line beside the data directory.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createRootCa, TrustStore } from '../../src/pki/index.js';
import {
  cosignerVerifierKey,
  ed25519CosignatureVerifier,
  ed25519NoteVerifier,
  ed25519VerifierKey,
} from '../../src/tlog/index.js';
import { ReceiptError } from '../../src/transparency/receipt-error.js';
import type { ReceiptFailureReason } from '../../src/transparency/receipt-error.js';
import { ReceiptVerifier } from '../../src/transparency/verify-receipt.js';
import type { ReceiptPolicy } from '../../src/transparency/verify-receipt.js';
import { calls, createPrescription, withItems } from '../support/e2e.js';
import { MED_A, roomyPrescription } from '../support/fixtures.js';
import {
  cosignedHead,
  cosignedReceipt,
  receiptSize,
  startWitnessedServer,
  TEST_LOG_ORIGIN,
} from '../support/witnessed-server.js';
import type { WitnessedServer } from '../support/witnessed-server.js';
import { ERX_CLI } from '../support/modules.js';

interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

/** `erx <args>` from the sources beside `dataDir`, with `input` on standard input. */
function erx(dataDir: string, args: string[], input = ''): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [...ERX_CLI, ...args],
      {
        env: { ...process.env, ERX_DATA_DIR: dataDir, ERX_LOG_ORIGIN: TEST_LOG_ORIGIN },
        timeout: 240_000,
      },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ status, stdout, stderr });
      },
    );
    child.stdin?.end(input);
  });
}

/** `text` with the character at `at` changed (to `B`, or `A` if it was one). */
function flip(text: string, at: number): string {
  const c = text[at]!;
  return `${text.slice(0, at)}${c === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;
}

describe('erx receipt verify, k of n witnesses', () => {
  let log: WitnessedServer;
  let receipt: string;
  let answerReceipt: string;
  let eventHash: string;
  let policy: ReceiptPolicy;

  before(async () => {
    log = await startWitnessedServer(3);
    const rx = await createPrescription(log.server, roomyPrescription());
    const dispense = calls(log.server).dispense(rx.id, withItems([{ id: MED_A, amount: 1 }]));
    const answer = await dispense();
    assert.equal(answer.status, 200, answer.text);
    answerReceipt = answer.json.receipt as string;
    eventHash = answer.json.hash as string;
    // Once the answer's checkpoint is written and cosigned (it is written a moment after).
    const { size, lines } = await cosignedHead(log.server, 3, 20_000, receiptSize(answerReceipt));
    receipt = await cosignedReceipt(log.server, answer.json.id as string, size, lines);
    policy = {
      trustStore: log.server.runtime.pki.trustStore,
      logKeys: [ed25519NoteVerifier(log.logVkey)],
      witnesses: log.witnesses.map((w) => ed25519CosignatureVerifier(w.vkey)),
      minWitnesses: 2,
    };
  });
  after(async () => {
    await log?.close();
  });

  /** Asserts that `text` fails under `p` with `reason`, its message naming the check. */
  async function fails(text: string, reason: ReceiptFailureReason, p = policy): Promise<void> {
    await assert.rejects(new ReceiptVerifier(p).verify(text), (error: unknown) => {
      assert.ok(error instanceof ReceiptError, String(error));
      assert.equal(error.reason, reason, error.describe());
      return true;
    });
  }

  test('k of n met: the event hash, its leaf and tree, and who cosigned', async () => {
    const verified = await new ReceiptVerifier(policy).verify(receipt);
    assert.equal(verified.eventHash, eventHash);
    assert.equal(verified.origin, TEST_LOG_ORIGIN);
    assert.ok(verified.leafIndex < verified.treeSize);
    assert.deepEqual(verified.cosignedBy, log.witnesses.map((w) => w.name).sort());
    // The answer's own receipt, without cosignatures, verifies when none are required.
    const bare = await new ReceiptVerifier({ ...policy, minWitnesses: 0 }).verify(answerReceipt);
    assert.equal(bare.eventHash, eventHash);
    assert.deepEqual(bare.cosignedBy, []);
  });

  test('k not met: too few of the trusted witnesses cosigned', async () => {
    await fails(answerReceipt, 'too_few_witnesses');
    const twoLines = receipt.split('\n').filter((l) => !l.startsWith('— witness.test/w3 '));
    const two = twoLines.join('\n');
    assert.equal((await new ReceiptVerifier(policy).verify(two)).cosignedBy.length, 2);
    await fails(two, 'too_few_witnesses', { ...policy, minWitnesses: 3 });
  });

  test('a witness key that did not cosign counts for nothing', async () => {
    const { publicKey } = generateKeyPairSync('ed25519');
    // Same name as a real witness, another key: its key ID differs, its line is not one of it.
    const impostor = ed25519CosignatureVerifier(cosignerVerifierKey('witness.test/w1', publicKey));
    await fails(receipt, 'too_few_witnesses', {
      ...policy,
      witnesses: [impostor],
      minWitnesses: 1,
    });
  });

  test('a tampered inclusion proof, checkpoint, cosignature or JWS fails its check', async () => {
    const lines = receipt.split('\n');
    const indexAt = lines.findIndex((l) => l.startsWith('index '));
    const proofLine = lines[indexAt + 1]!;
    assert.notEqual(proofLine, '', 'the test needs a tree of more than one leaf');
    const withLine = (i: number, line: string) =>
      [...lines.slice(0, i), line, ...lines.slice(i + 1)].join('\n');
    await fails(withLine(indexAt + 1, flip(proofLine, 3)), 'inclusion_proof');
    const index = Number(lines[indexAt]!.slice(6));
    await fails(withLine(indexAt, `index ${index === 0 ? 1 : index - 1}`), 'inclusion_proof');
    const rootAt = lines.findIndex((l) => l === TEST_LOG_ORIGIN) + 2;
    await fails(withLine(rootAt, flip(lines[rootAt]!, 5)), 'log_signature');
    const w2At = lines.findIndex((l) => l.startsWith('— witness.test/w2 '));
    await fails(withLine(w2At, flip(lines[w2At]!, 40)), 'witness_signature');
    const extraAt = lines.findIndex((l) => l.startsWith('extra '));
    const jws = Buffer.from(lines[extraAt]!.slice(6), 'base64').toString('latin1');
    const signature = jws.slice(jws.lastIndexOf('.') + 1);
    const bad = `${jws.slice(0, jws.lastIndexOf('.') + 1)}${flip(signature, 10)}`;
    const tampered = withLine(extraAt, `extra ${Buffer.from(bad).toString('base64')}`);
    await fails(tampered, 'event_signature');
    await fails(withLine(extraAt, ''), 'malformed_receipt');
  });

  test('a verifier that opened the checkpoint before still checks the rest', async () => {
    const verifier = new ReceiptVerifier(policy);
    await verifier.verify(receipt);
    const lines = receipt.split('\n');
    const indexAt = lines.findIndex((l) => l.startsWith('index '));
    const index = Number(lines[indexAt]!.slice(6));
    lines[indexAt] = `index ${index === 0 ? 1 : index - 1}`;
    await assert.rejects(verifier.verify(lines.join('\n')), (e: unknown) => {
      assert.ok(e instanceof ReceiptError && e.reason === 'inclusion_proof', String(e));
      return true;
    });
    const strict = new ReceiptVerifier({ ...policy, minWitnesses: 3 });
    await strict.verify(receipt);
    const two = receipt
      .split('\n')
      .filter((l) => !l.startsWith('— witness.test/w3 '))
      .join('\n');
    await assert.rejects(strict.verify(two), (e: unknown) => {
      assert.ok(e instanceof ReceiptError && e.reason === 'too_few_witnesses', String(e));
      return true;
    });
  });

  test('another log key, or another root, refuses the receipt', async () => {
    const other = generateKeyPairSync('ed25519').privateKey;
    const wrongKey = ed25519NoteVerifier(ed25519VerifierKey(TEST_LOG_ORIGIN, other));
    await fails(receipt, 'log_signature', { ...policy, logKeys: [wrongKey] });
    const wrongOrigin = ed25519NoteVerifier(ed25519VerifierKey('other.test/log', other));
    await fails(receipt, 'log_signature', { ...policy, logKeys: [wrongOrigin] });
    const root = await createRootCa();
    const trustStore = await TrustStore.fromCertificates([root.certificate]);
    await fails(receipt, 'certificate_chain', { ...policy, trustStore });
  });

  test('the command line: k of n beside the data directory, and a named failure', async () => {
    const file = join(log.dataDir, 'receipt.txt');
    writeFileSync(file, `${receipt}\n`); // as `jq -r .receipt` writes it
    const witnesses = log.witnesses.flatMap((w) => ['--witness', w.vkey]);
    // A run of the CLI from its sources starts in seconds, tens of them on a busy machine.
    const [ok, some, tooFew] = await Promise.all([
      erx(log.dataDir, ['receipt', 'verify', file, ...witnesses]),
      erx(log.dataDir, [
        'receipt',
        'verify',
        receipt,
        '--log-key',
        log.logVkey,
        ...witnesses,
        '--min-witnesses',
        '2',
      ]),
      erx(log.dataDir, ['receipt', 'verify', '-', ...witnesses], answerReceipt),
    ]);
    assert.equal(ok.status, 0, ok.stderr);
    const line = JSON.parse(ok.stdout) as Record<string, unknown>;
    assert.equal(line.valid, true);
    assert.equal(line.event_hash, eventHash);
    assert.equal(line.witnesses_required, 3);
    assert.deepEqual(line.cosigned_by, log.witnesses.map((w) => w.name).sort());
    assert.equal(some.status, 0, some.stderr);
    assert.equal(JSON.parse(some.stdout).witnesses_required, 2);
    assert.equal(tooFew.status, 1);
    assert.equal(JSON.parse(tooFew.stdout).failed, 'too_few_witnesses');
    assert.match(tooFew.stderr, /too few trusted witnesses.*0 of 3 required/i);
  });
});
