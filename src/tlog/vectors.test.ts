import assert from 'node:assert/strict';
import { test } from 'node:test';
import { vectorFolder } from '../../test/support/vectors.js';
import { MemoryTree } from '../../test/support/tlog/memory-tree.js';
import { checkConsistency } from './check-consistency.js';
import { checkInclusion } from './check-inclusion.js';
import { cosignatureTimestamp, ed25519CosignatureVerifier } from './cosignature.js';
import {
  ed25519NoteSigner,
  ed25519NoteVerifier,
  ed25519PrivateKeyFromSeed,
  ed25519VerifierKey,
} from './ed25519-note.js';
import { emptyTreeHash, leafHash, nodeHash } from './hash.js';
import { openNote, signNote } from './note.js';
import { parseVerifierKey } from './note-key.js';
import { storedHashIndex } from './stored-hash-index.js';
import { treeHash } from './tree-hash.js';
import { TlogError } from './tlog-error.js';

interface Vector {
  file: string;
  vector: { source: string; input: Record<string, unknown>; expected: Record<string, unknown> };
}

const vectors = vectorFolder<Vector['vector']>('tlog');
const inFile = (name: string) => vectors.filter((v) => v.file === name).map((v) => v.vector);
const b64 = (s: unknown) => Buffer.from(s as string, 'base64');
const hex = (s: unknown) => Buffer.from(s as string, 'hex');

test('the tlog vector folder holds every file, each with sourced vectors', () => {
  for (const file of [
    'consistency-proofs.json',
    'cosignature.json',
    'inclusion-proofs.json',
    'rfc6962-hashing.json',
    'signed-note.json',
    'verifier-keys.json',
  ]) {
    assert.ok(inFile(file).length > 0, file);
  }
  for (const { vector } of vectors) assert.ok(vector.source.length > 10 && vector.expected);
});

test('RFC 6962 hashing vectors: leaf, node, empty tree, every reference tree head and stored node', async () => {
  for (const { input, expected } of inFile('rfc6962-hashing.json')) {
    let got: Buffer;
    if (input.op === 'empty_tree') got = emptyTreeHash();
    else if (input.op === 'leaf') got = leafHash(hex(input.data));
    else if (input.op === 'node') got = nodeHash(hex(input.left), hex(input.right));
    else {
      const tree = new MemoryTree();
      for (const leaf of input.leaves as string[]) await tree.append(hex(leaf));
      if (input.op === 'tree') got = await treeHash(tree.size, tree.reader);
      else got = tree.hashes[storedHashIndex(input.level as number, input.n as number)]!;
    }
    assert.equal(got.toString('hex'), expected.hash, JSON.stringify(input));
  }
});

test('inclusion proof vectors verify or fail as published', () => {
  for (const { input, expected } of inFile('inclusion-proofs.json')) {
    const proof = (input.proof as string[]).map(b64);
    const ok = checkInclusion(
      proof,
      input.treeSize as number,
      b64(input.root),
      input.leafIndex as number,
      b64(input.leafHash),
    );
    assert.equal(ok, expected.valid, input.desc as string);
  }
});

test('consistency proof vectors verify or fail as published (one deviation, stated in the file)', () => {
  for (const { input, expected } of inFile('consistency-proofs.json')) {
    const proof = (input.proof as string[]).map(b64);
    const ok = checkConsistency(
      proof,
      input.newSize as number,
      b64(input.newRoot),
      input.oldSize as number,
      b64(input.oldRoot),
    );
    assert.equal(ok, expected.valid, input.desc as string);
  }
});

test('signed note vectors: Go and C2SP notes open, sign byte for byte, and fail as published', async () => {
  for (const { source, input, expected } of inFile('signed-note.json')) {
    if (input.op === 'sign') {
      const key = ed25519PrivateKeyFromSeed(hex(input.seed));
      const signer = ed25519NoteSigner(input.name as string, key);
      assert.equal(await signNote(input.text as string, [signer]), expected.note, source);
      assert.equal(ed25519VerifierKey(input.name as string, key), expected.vkey, source);
      continue;
    }
    const verifiers = (input.vkeys as string[]).map((k) => ed25519NoteVerifier(k));
    if (expected.error !== undefined) {
      assert.throws(
        () => openNote(input.note as string, verifiers),
        (e) => e instanceof TlogError && e.reason === expected.error,
        source,
      );
      continue;
    }
    const opened = openNote(input.note as string, verifiers);
    assert.equal(opened.text, expected.text, source);
    assert.deepEqual(
      opened.verified.map((s) => s.name),
      expected.verified,
      source,
    );
  }
});

test('verifier key vectors parse, or are refused as Ed25519 note keys, as published', () => {
  for (const { source, input, expected } of inFile('verifier-keys.json')) {
    const vkey = input.vkey as string;
    if (expected.error !== undefined) {
      assert.throws(
        () => ed25519NoteVerifier(vkey),
        (e) => e instanceof TlogError && e.reason === expected.error,
        source,
      );
      continue;
    }
    const key = parseVerifierKey(vkey);
    assert.equal(key.name, expected.name, source);
    assert.equal(key.keyId.toString(16).padStart(8, '0'), expected.keyId, source);
    assert.equal(key.type, expected.type, source);
    assert.equal(ed25519NoteVerifier(vkey).keyId, key.keyId, source);
  }
});

test('cosignature vectors: the time of a published v1 cosignature, and cosigner keys', () => {
  for (const { source, input, expected } of inFile('cosignature.json')) {
    if (input.op === 'timestamp') {
      const bytes = b64(input.signatureLine);
      assert.equal(cosignatureTimestamp(bytes.subarray(4)) ?? null, expected.timestamp, source);
      continue;
    }
    const vkey = input.vkey as string;
    if (expected.error !== undefined) {
      const refused = (e: unknown) => e instanceof TlogError && e.reason === expected.error;
      assert.throws(() => ed25519CosignatureVerifier(vkey), refused, source);
      continue;
    }
    const verifier = ed25519CosignatureVerifier(vkey);
    assert.equal(verifier.name, expected.name, source);
    assert.equal(verifier.keyId.toString(16).padStart(8, '0'), expected.keyId, source);
  }
});
