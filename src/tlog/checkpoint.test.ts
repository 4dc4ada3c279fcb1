import assert from 'node:assert/strict';
import { generateKeyPairSync, verify } from 'node:crypto';
import { test } from 'node:test';
import { formatCheckpoint, parseCheckpoint } from './checkpoint.js';
import {
  cosignatureMessage,
  cosignatureTimes,
  cosignerVerifierKey,
  ed25519CosignatureVerifier,
  ed25519Cosigner,
} from './cosignature.js';
import { ed25519NoteSigner, ed25519NoteVerifier, ed25519VerifierKey } from './ed25519-note.js';
import { formatNote, openNote, parseNote, signNote } from './note.js';
import { parseVerifierKey } from './note-key.js';
import { openCheckpoint } from './open-checkpoint.js';
import { memoryTree } from '../../test/support/tlog/memory-tree.js';
import { signCheckpoint } from './sign-checkpoint.js';
import { treeHash } from './tree-hash.js';
import { TlogError } from './tlog-error.js';

const ORIGIN = 'erx.example.ch/log';
const reason = (r: string) => (e: unknown) => e instanceof TlogError && e.reason === r;

function keys(logName = ORIGIN) {
  const log = generateKeyPairSync('ed25519').privateKey;
  const witness = generateKeyPairSync('ed25519').privateKey;
  const logVkey = ed25519VerifierKey(logName, log);
  const witnessVkey = cosignerVerifierKey('witness.example/w1', witness);
  return { log, witness, logVkey, witnessVkey };
}

test('the C2SP checkpoint example parses and formats back byte for byte', () => {
  // c2sp.org/tlog-checkpoint, the example's note text.
  const text =
    'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
  const cp = parseCheckpoint(text);
  assert.equal(cp.origin, 'example.com/behind-the-sofa');
  assert.equal(cp.size, 20852163);
  assert.equal(cp.root.length, 32);
  assert.equal(formatCheckpoint(cp), text);
  const withExtension = `${text}ext line\n`;
  assert.deepEqual(parseCheckpoint(withExtension).extensions, ['ext line']);
  assert.equal(formatCheckpoint(parseCheckpoint(withExtension)), withExtension);
});

test('malformed checkpoint texts are refused with malformed_checkpoint', () => {
  const root = Buffer.alloc(32, 7).toString('base64');
  for (const text of [
    `${ORIGIN}\n5\n${root}`, // no final newline
    `${ORIGIN}\n5\n`, // two lines
    `\n5\n${root}\n`, // empty origin
    `${ORIGIN}\n05\n${root}\n`, // leading zero
    `${ORIGIN}\n-1\n${root}\n`,
    `${ORIGIN}\n+5\n${root}\n`,
    `${ORIGIN}\n 5\n${root}\n`,
    `${ORIGIN}\n99999999999999999\n${root}\n`, // past 2^53
    `${ORIGIN}\n5\n${Buffer.alloc(31).toString('base64')}\n`,
    `${ORIGIN}\n5\n${root.slice(0, -1)}\n`, // unpadded
    `${ORIGIN}\n5\n${root}\n\n`, // empty extension line
  ]) {
    assert.throws(
      () => parseCheckpoint(text),
      reason('malformed_checkpoint'),
      JSON.stringify(text),
    );
  }
  assert.equal(parseCheckpoint(`${ORIGIN}\n0\n${root}\n`).size, 0);
});

test('a checkpoint signed by the log and cosigned by a witness opens under the policy', async () => {
  const k = keys();
  const text = formatCheckpoint({ origin: ORIGIN, size: 300, root: Buffer.alloc(32, 1) });
  const logSigner = ed25519NoteSigner(ORIGIN, k.log);
  const cosigner = ed25519Cosigner('witness.example/w1', k.witness, () => 1679315147);
  const note = await signNote(text, [logSigner, cosigner]);
  const log = [ed25519NoteVerifier(k.logVkey)];
  const witnesses = [ed25519CosignatureVerifier(k.witnessVkey)];
  const opened = openCheckpoint(note, { origin: ORIGIN, log, witnesses, minCosignatures: 1 });
  assert.equal(opened.checkpoint.size, 300);
  assert.deepEqual(opened.cosignedBy, ['witness.example/w1']);
  assert.deepEqual(
    [...cosignatureTimes(opened.note.verified, witnesses)],
    [['witness.example/w1', 1679315147]],
  );

  // The cosignature is Ed25519 over the v1 message (tlog-cosignature §Ed25519 signed message).
  const cosig = parseNote(note).signatures[1]!;
  assert.equal(cosig.signature.length, 72);
  assert.equal(cosig.signature.readBigUInt64BE(0), 1679315147n);
  const message = cosignatureMessage(text, 1679315147).toString('utf8');
  assert.equal(message, `cosignature/v1\ntime 1679315147\n${text}`);
  const pub = parseVerifierKey(k.witnessVkey);
  assert.equal(pub.type, 0x04);
  assert.equal(verify(null, Buffer.from(message), k.witness, cosig.signature.subarray(8)), true);

  // The policy's failures.
  assert.throws(() => openCheckpoint(note, { origin: 'other/log', log }), reason('wrong_origin'));
  assert.throws(
    () => openCheckpoint(note, { origin: ORIGIN, log, witnesses: [], minCosignatures: 1 }),
    reason('too_few_cosignatures'),
  );
  assert.throws(
    () => openCheckpoint(note, { origin: ORIGIN, log: [ed25519NoteVerifier(keys().logVkey)] }),
    reason('unverified_note'),
  );
});

test('a tampered cosignature time, signature or checkpoint text is refused', async () => {
  const k = keys();
  const text = formatCheckpoint({ origin: ORIGIN, size: 9, root: Buffer.alloc(32, 2) });
  const note = await signNote(text, [
    ed25519NoteSigner(ORIGIN, k.log),
    ed25519Cosigner('witness.example/w1', k.witness, () => 1700000000),
  ]);
  const log = [ed25519NoteVerifier(k.logVkey)];
  const witnesses = [ed25519CosignatureVerifier(k.witnessVkey)];
  const parsed = parseNote(note);
  const [logSig, cosig] = parsed.signatures as [
    (typeof parsed.signatures)[0],
    (typeof parsed.signatures)[0],
  ];
  const laterTime = Buffer.from(cosig.signature);
  laterTime.writeBigUInt64BE(1700000001n, 0);
  const flipped = Buffer.from(cosig.signature);
  flipped[40]! ^= 1;
  for (const signature of [laterTime, flipped, cosig.signature.subarray(0, 71)]) {
    const bad = formatNote(text, [logSig, { ...cosig, signature }]);
    assert.throws(
      () => openCheckpoint(bad, { origin: ORIGIN, log, witnesses }),
      reason('bad_signature'),
    );
  }
  const otherText = text.replace('\n9\n', '\n10\n');
  const forged = formatNote(otherText, parsed.signatures);
  assert.throws(() => openNote(forged, log), reason('bad_signature'));
  // The same Ed25519 key as a 0x01 note key and as a 0x04 cosigner has two key IDs.
  assert.notEqual(
    parseVerifierKey(ed25519VerifierKey('w', k.witness)).keyId,
    parseVerifierKey(cosignerVerifierKey('w', k.witness)).keyId,
  );
});

test('signCheckpoint signs the tree head from the stored hashes; two verifiers for one key are refused', async () => {
  const k = keys();
  const tree = await memoryTree(10);
  const signer = ed25519NoteSigner(ORIGIN, k.log);
  const { checkpoint, note } = await signCheckpoint(ORIGIN, 10, tree.reader, [signer]);
  assert.deepEqual(checkpoint.root, await treeHash(10, tree.reader));
  const log = [ed25519NoteVerifier(k.logVkey)];
  assert.deepEqual(openCheckpoint(note, { origin: ORIGIN, log }).checkpoint, checkpoint);
  const twice = [...log, ed25519NoteVerifier(k.logVkey)];
  assert.throws(() => openNote(note, twice), reason('malformed_key'));
});

test('signature lines of unknown keys are ignored; a re-signing key replaces its old line', async () => {
  const k = keys();
  const other = generateKeyPairSync('ed25519').privateKey;
  const text = formatCheckpoint({ origin: ORIGIN, size: 1, root: Buffer.alloc(32, 3) });
  const signer = ed25519NoteSigner(ORIGIN, k.log);
  const first = await signNote(text, [ed25519NoteSigner('someone.else/key', other), signer]);
  const again = await signNote(text, [signer], parseNote(first).signatures);
  assert.equal(parseNote(again).signatures.length, 2);
  const opened = openNote(again, [ed25519NoteVerifier(k.logVkey)]);
  assert.deepEqual(
    opened.verified.map((s) => s.name),
    [ORIGIN],
  );
});
