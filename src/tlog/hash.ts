/**
 * RFC 6962 §2.1 (RFC 9162 §2.1.1) Merkle tree hashing with SHA-256: domain-separated leaf and
 * interior node hashes, and erx's leaf: the 32 raw bytes of a ledger event's `hash`.
 */
import { hash } from 'node:crypto';
import { isSha256Hex } from '../ledger/hash.js';
import { TlogError } from './tlog-error.js';

/** Bytes of every tree hash. */
export const HASH_SIZE = 32;

const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;

/** SHA-256(0x00 || data): the hash of one leaf. */
export function leafHash(data: Uint8Array): Buffer {
  const input = Buffer.allocUnsafe(1 + data.length);
  input[0] = LEAF_PREFIX;
  input.set(data, 1);
  return hash('sha256', input, 'buffer');
}

/** SHA-256(0x01 || left || right): the hash of an interior node. */
export function nodeHash(left: Uint8Array, right: Uint8Array): Buffer {
  const input = Buffer.allocUnsafe(1 + left.length + right.length);
  input[0] = NODE_PREFIX;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return hash('sha256', input, 'buffer');
}

/** A reusable input buffer for {@link nodeHashWith}: 0x01 and room for two hashes. */
export function nodeScratch(): Buffer {
  const scratch = Buffer.alloc(1 + 2 * HASH_SIZE);
  scratch[0] = NODE_PREFIX;
  return scratch;
}

/**
 * {@link nodeHash} of two 32-byte hashes through a caller's scratch buffer: proof checks run per
 * receipt, and one buffer per check saves an allocation per level.
 */
export function nodeHashWith(scratch: Buffer, left: Uint8Array, right: Uint8Array): Buffer {
  scratch.set(left, 1);
  scratch.set(right, 1 + HASH_SIZE);
  return hash('sha256', scratch, 'buffer');
}

/** The root of the empty tree, SHA-256 of no bytes (RFC 6962 §2.1). */
export function emptyTreeHash(): Buffer {
  return hash('sha256', Buffer.alloc(0), 'buffer');
}

/** The leaf data of a ledger event: the 32 raw bytes of its lowercase hex `hash` (SPEC.md §7). */
export function eventLeaf(eventHash: string): Buffer {
  if (!isSha256Hex(eventHash))
    throw new TlogError('malformed_hash', 'event hash is not 64 hex digits');
  return Buffer.from(eventHash, 'hex');
}

/** The tree's leaf hash of a ledger event, SHA-256(0x00 || raw event hash). */
export function eventLeafHash(eventHash: string): Buffer {
  return leafHash(eventLeaf(eventHash));
}

/** True for a 32-byte hash. */
export function isHash(value: unknown): value is Uint8Array {
  return value instanceof Uint8Array && value.length === HASH_SIZE;
}

/** True when two byte strings are equal (tree hashes are public: no constant-time need). */
export function hashesEqual(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.length).equals(b);
}
