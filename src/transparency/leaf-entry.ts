/**
 * What a leaf of the transparency log holds (docs/transparency.md, "What is logged"): not an
 * event's hash alone, but a commitment to where the event stands: the chain's one-way name, the
 * event's place in its chain, the event's hash, and the leaf of the same chain logged before it.
 * A reader of the public log can so tell two different leaves for one place of one chain apart,
 * without learning the prescription id, actor or patient behind them.
 *
 * Entry bytes (77): version 0x01, chain name (32), place (uint32 big-endian), event hash (32),
 * previous leaf of the chain (uint64 big-endian: its index + 1; 0 when there is none). Leaves
 * logged before chained entries existed are the event hash alone (32 bytes).
 */
import { hash } from 'node:crypto';
import { isSha256Hex } from '../ledger/hash.js';
import type { LeafRow } from '../store/log.js';
import { leafHash } from '../tlog/index.js';

/** The first byte of a chained entry. */
export const CHAINED_ENTRY_VERSION = 1;
/** Bytes of a chained entry. */
export const CHAINED_ENTRY_SIZE = 77;
/** Bytes of a chained entry before its event hash (the context a receipt carries). */
export const ENTRY_CONTEXT_SIZE = 1 + 32 + 4;
/** The domain tag of a chain's name. */
const CHAIN_NAME_TAG = 'erx chain name v1\u0000';

/** A chained leaf: where its event stands, and the leaf of the chain logged before it. */
export interface ChainedLeaf {
  /** The chain's name (32 bytes, {@link chainName}). */
  readonly chain: Uint8Array;
  /** The event's place in its chain: 0 for the create event. */
  readonly place: number;
  /** The event's hash, lowercase hex. */
  readonly hash: string;
  /** The index of the chain's leaf logged before this one; undefined for none. */
  readonly prev: number | undefined;
}

/** The one-way name of prescription `prescriptionId`'s chain: SHA-256 over a tag and the id. */
export function chainName(prescriptionId: string): Buffer {
  return hash('sha256', `${CHAIN_NAME_TAG}${prescriptionId}`, 'buffer');
}

/**
 * The event hash's 32 bytes in a chained entry. The log takes in only events whose hash verifies;
 * a stored hash that is not 64 hex digits (never taken in) would go in by its own SHA-256.
 */
function hashBytes(eventHash: string): Buffer {
  return isSha256Hex(eventHash)
    ? Buffer.from(eventHash, 'hex')
    : hash('sha256', eventHash, 'buffer');
}

/**
 * The entry of a leaf logged before chained entries: the event hash alone (its raw bytes; one
 * that is not hex as the bytes it is, as such leaves were hashed).
 */
export function legacyEntry(eventHash: string): Buffer {
  return isSha256Hex(eventHash) ? Buffer.from(eventHash, 'hex') : Buffer.from(eventHash, 'utf8');
}

/** The entry bytes of `leaf`. */
export function chainedEntry(leaf: ChainedLeaf): Buffer {
  const out = Buffer.alloc(CHAINED_ENTRY_SIZE);
  out[0] = CHAINED_ENTRY_VERSION;
  out.set(leaf.chain, 1);
  out.writeUInt32BE(leaf.place, 33);
  out.set(hashBytes(leaf.hash), 37);
  out.writeBigUInt64BE(leaf.prev === undefined ? 0n : BigInt(leaf.prev) + 1n, 69);
  return out;
}

/** The tree's leaf hash of `leaf` (RFC 6962 over its entry). */
export function chainedLeafHash(leaf: ChainedLeaf): Buffer {
  return leafHash(chainedEntry(leaf));
}

/** A chained entry read back; undefined when `entry` is not one (a legacy or malformed entry). */
export function readChainedEntry(entry: Uint8Array): ChainedLeaf | undefined {
  if (entry.length !== CHAINED_ENTRY_SIZE || entry[0] !== CHAINED_ENTRY_VERSION) return undefined;
  const bytes = Buffer.from(entry.buffer, entry.byteOffset, entry.length);
  const prev = bytes.readBigUInt64BE(69);
  return {
    chain: bytes.subarray(1, 33),
    place: bytes.readUInt32BE(33),
    hash: bytes.subarray(37, 69).toString('hex'),
    prev: prev === 0n ? undefined : Number(prev - 1n),
  };
}

/**
 * A receipt's `extra`: the entry's context (version, chain name, place) and previous leaf, then
 * the event's JWS, so that an offline verifier rebuilds the leaf from the hash the JWS signs.
 */
export function receiptExtra(leaf: ChainedLeaf, jws: string): Buffer {
  const entry = chainedEntry(leaf);
  return Buffer.concat([
    entry.subarray(0, ENTRY_CONTEXT_SIZE),
    entry.subarray(69),
    Buffer.from(jws),
  ]);
}

/**
 * A receipt's `extra` split into the leaf entry it stands for (given the hash its JWS signs) and
 * the JWS; an `extra` that is the JWS alone (a legacy leaf) has the hash alone as its entry.
 */
export function splitReceiptExtra(extra: Uint8Array): {
  jws: string;
  entry: (eventHash: string) => Buffer;
} {
  const bytes = Buffer.from(extra.buffer, extra.byteOffset, extra.length);
  if (bytes[0] !== CHAINED_ENTRY_VERSION || bytes.length <= ENTRY_CONTEXT_SIZE + 8) {
    return { jws: bytes.toString('latin1'), entry: legacyEntry };
  }
  const context = bytes.subarray(0, ENTRY_CONTEXT_SIZE);
  const prev = bytes.subarray(ENTRY_CONTEXT_SIZE, ENTRY_CONTEXT_SIZE + 8);
  return {
    jws: bytes.subarray(ENTRY_CONTEXT_SIZE + 8).toString('latin1'),
    entry: (eventHash) => Buffer.concat([context, hashBytes(eventHash), prev]),
  };
}

/** The entry of a leaf as the log took it in. */
export function leafEntry(row: LeafRow): Buffer {
  return row.chain === null ? legacyEntry(row.hash) : chainedEntry({ ...row, chain: row.chain });
}
