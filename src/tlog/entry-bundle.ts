/**
 * Entry bundles of c2sp.org/tlog-tiles: the log entries of one level 0 tile, each prefixed with
 * its length as a big-endian uint16. erx's entries are the 32 raw bytes of ledger event hashes.
 */
import { eventLeaf } from './hash.js';
import { TILE_WIDTH } from './tile.js';
import { TlogError } from './tlog-error.js';

const MAX_ENTRY = 0xffff;

/** The bundle of `entries` (1 to 256, each at most 65535 bytes). */
export function encodeEntryBundle(entries: readonly Uint8Array[]): Buffer {
  if (entries.length === 0 || entries.length > TILE_WIDTH) {
    throw new TlogError('malformed_entry_bundle', `${entries.length} entries`);
  }
  const parts: Buffer[] = [];
  for (const entry of entries) {
    if (entry.length > MAX_ENTRY) throw new TlogError('malformed_entry_bundle', 'entry too long');
    const prefix = Buffer.alloc(2);
    prefix.writeUInt16BE(entry.length, 0);
    parts.push(prefix, Buffer.from(entry));
  }
  return Buffer.concat(parts);
}

/** The bundle of ledger events by their hex `hash` (SPEC.md §7). */
export function eventEntryBundle(eventHashes: readonly string[]): Buffer {
  return encodeEntryBundle(eventHashes.map((h) => eventLeaf(h)));
}

/** The entries of a bundle; throws `malformed_entry_bundle` when the prefixes do not add up. */
export function decodeEntryBundle(bundle: Uint8Array): Buffer[] {
  const bytes = Buffer.from(bundle.buffer, bundle.byteOffset, bundle.length);
  const entries: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 2 > bytes.length) throw new TlogError('malformed_entry_bundle', 'cut length prefix');
    const length = bytes.readUInt16BE(at);
    if (at + 2 + length > bytes.length) throw new TlogError('malformed_entry_bundle', 'cut entry');
    entries.push(bytes.subarray(at + 2, at + 2 + length));
    at += 2 + length;
  }
  if (entries.length === 0 || entries.length > TILE_WIDTH) {
    throw new TlogError('malformed_entry_bundle', `${entries.length} entries`);
  }
  return entries;
}
