import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { test } from 'node:test';
import { memoryTree } from '../../test/support/tlog/memory-tree.js';
import { formatCheckpoint } from './checkpoint.js';
import { cosignerVerifierKey, ed25519CosignatureVerifier, ed25519Cosigner } from './cosignature.js';
import { ed25519NoteSigner, ed25519NoteVerifier, ed25519VerifierKey } from './ed25519-note.js';
import { leafHash } from './hash.js';
import { signNote } from './note.js';
import { formatVerifierKey, parseVerifierKey } from './note-key.js';
import { proveInclusion } from './prove-inclusion.js';
import { formatTlogProof, parseTlogProof, TLOG_PROOF_HEADER } from './tlog-proof.js';
import { treeHash } from './tree-hash.js';
import { LruCache } from '../lru-cache.js';
import type { OpenedCheckpoint } from './open-checkpoint.js';
import { TlogError } from './tlog-error.js';
import { verifyTlogProof } from './verify-tlog-proof.js';

const ORIGIN = 'erx.example.ch/log';
const reason = (r: string) => (e: unknown) => e instanceof TlogError && e.reason === r;

async function receipt(index: number, size = 300) {
  const tree = await memoryTree(size);
  const log = generateKeyPairSync('ed25519').privateKey;
  const witness = generateKeyPairSync('ed25519').privateKey;
  const root = await treeHash(size, tree.reader);
  const note = await signNote(formatCheckpoint({ origin: ORIGIN, size, root }), [
    ed25519NoteSigner(ORIGIN, log),
    ed25519Cosigner('witness.example/w1', witness, () => 1700000000),
  ]);
  const proof = await proveInclusion(size, index, tree.reader);
  const text = formatTlogProof({ index, proof, checkpoint: note });
  const policy = {
    origin: ORIGIN,
    log: [ed25519NoteVerifier(ed25519VerifierKey(ORIGIN, log))],
    witnesses: [ed25519CosignatureVerifier(cosignerVerifierKey('witness.example/w1', witness))],
    minCosignatures: 1,
  };
  return { text, note, proof, policy, leaf: leafHash(Buffer.from(`leaf ${index}`)) };
}

test('a receipt is the tlog-proof@v1 text and verifies for its leaf only', async () => {
  const r = await receipt(123);
  const lines = r.text.split('\n');
  assert.equal(lines[0], TLOG_PROOF_HEADER);
  assert.equal(lines[1], 'index 123');
  assert.deepEqual(
    lines.slice(2, 2 + r.proof.length),
    r.proof.map((h) => h.toString('base64')),
  );
  assert.equal(lines[2 + r.proof.length], '');
  assert.ok(r.text.endsWith(r.note));
  const verified = verifyTlogProof(r.text, r.leaf, r.policy);
  assert.equal(verified.index, 123);
  assert.equal(verified.checkpoint.size, 300);
  assert.deepEqual(verified.cosignedBy, ['witness.example/w1']);
  const other = leafHash(Buffer.from('leaf 124'));
  assert.throws(() => verifyTlogProof(r.text, other, r.policy), reason('proof_mismatch'));
  const moved = r.text.replace('index 123', 'index 122');
  assert.throws(() => verifyTlogProof(moved, r.leaf, r.policy), reason('proof_mismatch'));
});

test('with a memo, receipts of one checkpoint open it once and still check each proof', async () => {
  const r = await receipt(10);
  const memo = new LruCache<OpenedCheckpoint>(4);
  let opens = 0;
  const counting = {
    ...r.policy,
    log: r.policy.log.map((v) => ({
      ...v,
      verify: (t: Buffer, s: Buffer) => (opens++, v.verify(t, s)),
    })),
  };
  assert.equal(verifyTlogProof(r.text, r.leaf, counting, memo).index, 10);
  assert.equal(verifyTlogProof(r.text, r.leaf, counting, memo).index, 10);
  assert.equal(opens, 1);
  const other = leafHash(Buffer.from('leaf 11'));
  assert.throws(() => verifyTlogProof(r.text, other, counting, memo), reason('proof_mismatch'));
});

test('extra data round-trips and a proof of a one-leaf tree has no hash lines', async () => {
  const r = await receipt(0, 1);
  const text = formatTlogProof({
    extra: Buffer.from('ctx'),
    index: 0,
    proof: [],
    checkpoint: r.note,
  });
  assert.ok(text.startsWith(`${TLOG_PROOF_HEADER}\nextra Y3R4\nindex 0\n\n`));
  const parsed = parseTlogProof(text);
  assert.deepEqual(parsed.extra, Buffer.from('ctx'));
  assert.deepEqual(parsed.proof, []);
  assert.equal(parsed.checkpoint, r.note);
  assert.deepEqual(verifyTlogProof(text, r.leaf, r.policy).extra, Buffer.from('ctx'));
});

test('the parser refuses every malformed proof text with malformed_proof, naming the line', async () => {
  const r = await receipt(5, 20);
  const [head, ...rest] = r.text.split('\n\n');
  const body = rest.join('\n\n');
  const hashLine = r.proof[0]!.toString('base64');
  const cases = [
    r.text.replace(TLOG_PROOF_HEADER, 'c2sp.org/tlog-proof@v2'),
    r.text.replace('index 5', 'index 05'),
    r.text.replace('index 5', 'index  5'),
    r.text.replace('index 5', 'index -5'),
    r.text.replace('index 5\n', ''),
    r.text.replace('index 5', 'extra !!\nindex 5'),
    r.text.replace('index 5', 'extra \nindex 5'),
    r.text.replace(hashLine, hashLine.slice(0, -4)),
    r.text.replace(hashLine, `${hashLine} `),
    `${head}`,
    `${head}\n${body}`,
    `${TLOG_PROOF_HEADER}\nindex 1\n${Array.from({ length: 64 }, () => hashLine).join('\n')}\n\n${body}`,
  ];
  for (const text of cases) {
    assert.throws(
      () => parseTlogProof(text),
      (e) => {
        return e instanceof TlogError && ['malformed_proof', 'malformed_note'].includes(e.reason);
      },
      JSON.stringify(text.slice(0, 80)),
    );
  }
  assert.throws(
    () => parseTlogProof(r.text.replace('index 5', 'index x')),
    (e) => {
      return (
        e instanceof TlogError &&
        e.reason === 'malformed_proof' &&
        String(e.detail).startsWith('line 2')
      );
    },
  );
  const badCheckpoint = r.text.replace(`${ORIGIN}\n20\n`, `${ORIGIN}\n020\n`);
  assert.throws(() => parseTlogProof(badCheckpoint), reason('malformed_checkpoint'));
});

test('a receipt whose checkpoint signature was tampered with is refused', async () => {
  const r = await receipt(7, 50);
  const tampered = r.text.replace(`${ORIGIN}\n50\n`, `${ORIGIN}\n51\n`);
  assert.throws(() => verifyTlogProof(tampered, r.leaf, r.policy), reason('bad_signature'));
});

test('verifier keys whose base64 holds + round-trip (split at the first two + only)', () => {
  let withPlus = 0;
  for (let i = 0; i < 40; i++) {
    const raw = generateKeyPairSync('ed25519')
      .publicKey.export({ format: 'der', type: 'spki' })
      .subarray(12);
    const vkey = formatVerifierKey('a.example/k', 1, raw);
    if (vkey.split('+').length > 3) withPlus++;
    assert.deepEqual(parseVerifierKey(vkey).publicKey, raw);
  }
  assert.ok(withPlus > 0, 'some key had a + in its base64');
});
