/**
 * The add-checkpoint exchange of c2sp.org/tlog-witness as erx sends and reads it: the request body
 * byte for byte, a cosignature line kept only when it verifies under the witness's key (never a
 * line by another key, never a zero time), and a 409 read only with its size and media type.
 */
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { createServer } from 'node:http';
import type { Server } from 'node:http';
import { after, before, describe, test } from 'node:test';
import {
  cosignerVerifierKey,
  ed25519CosignatureVerifier,
  ed25519Cosigner,
  ed25519NoteSigner,
  formatCheckpoint,
  signNote,
} from '../tlog/index.js';
import { addCheckpoint, addCheckpointBody, cosignatureLine } from './add-checkpoint.js';

const ROOT = Buffer.alloc(32, 7);
const logKey = generateKeyPairSync('ed25519').privateKey;
const witnessKey = generateKeyPairSync('ed25519').privateKey;
const witness = ed25519CosignatureVerifier(cosignerVerifierKey('w.test', witnessKey));

async function cosigned(key = witnessKey, now?: () => number) {
  const text = formatCheckpoint({ origin: 'log.test', size: 5, root: ROOT });
  const note = await signNote(text, [ed25519NoteSigner('log.test', logKey)]);
  const withWitness = await signNote(text, [ed25519Cosigner('w.test', key, now)], []);
  const line = withWitness.slice(withWitness.lastIndexOf('\u2014'));
  return { note, line };
}

describe('add-checkpoint', () => {
  test('the body: old size, the proof one base64 hash a line, a blank line, the checkpoint', () => {
    const body = addCheckpointBody(3, [Buffer.alloc(32, 1), Buffer.alloc(32, 2)], 'note\n');
    assert.equal(
      body,
      `old 3\n${Buffer.alloc(32, 1).toString('base64')}\n${Buffer.alloc(32, 2).toString('base64')}\n\nnote\n`,
    );
    assert.equal(addCheckpointBody(0, [], 'note\n'), 'old 0\n\nnote\n');
  });

  test('a cosignature line is kept only when it verifies under the witness key', async () => {
    const { note, line } = await cosigned();
    assert.equal(cosignatureLine(note, line, witness), line.trimEnd());
    const other = await cosigned(generateKeyPairSync('ed25519').privateKey);
    assert.throws(() => cosignatureLine(note, other.line, witness));
    const flipped = `${line.slice(0, 40)}${line[40] === 'A' ? 'B' : 'A'}${line.slice(41)}`;
    assert.throws(() => cosignatureLine(note, flipped, witness));
    const timeless = await cosigned(witnessKey, () => 0);
    assert.throws(() => cosignatureLine(note, timeless.line, witness));
  });

  describe('over HTTP', () => {
    let server: Server;
    let url = '';
    let answer: { status: number; type: string; body: string } = {
      status: 200,
      type: '',
      body: '',
    };
    before(async () => {
      server = createServer((_req, res) => {
        res.writeHead(answer.status, { 'content-type': answer.type });
        res.end(answer.body);
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const address = server.address();
      url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
    });
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));

    test('200 with the line, 409 with a size, anything else a failure', async () => {
      const { note, line } = await cosigned();
      const send = () => addCheckpoint(url, 'old 0\n\n', note, witness, 5_000);
      answer = { status: 200, type: 'text/plain', body: line };
      assert.deepEqual(await send(), { kind: 'cosigned', line: line.trimEnd() });
      answer = { status: 409, type: 'text/x.tlog.size', body: '17\n' };
      assert.deepEqual(await send(), { kind: 'conflict', size: 17 });
      answer = { status: 409, type: 'text/plain', body: '17\n' };
      assert.equal((await send()).kind, 'failed');
      answer = { status: 409, type: 'text/x.tlog.size', body: '017\n' };
      assert.equal((await send()).kind, 'failed');
      answer = { status: 422, type: 'text/plain', body: 'inconsistent\n' };
      assert.deepEqual(await send(), { kind: 'failed', why: '422 inconsistent' });
      answer = { status: 200, type: 'text/plain', body: 'not a signature\n' };
      assert.equal((await send()).kind, 'failed');
    });
  });
});
