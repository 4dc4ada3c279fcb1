/**
 * The monitor's check of what the log's entries commit to (`../transparency/leaf-entry.ts`): each
 * chained leaf must follow the newest leaf of its chain that it names, at the place after that
 * leaf's, and a create (place 0) names none. A second leaf for a place of a chain (a rewritten
 * chain, re-signed and re-positioned, or a truncated chain appended to again) names a leaf of a
 * later place, or a leaf at all for a second create. The check reads only the public log (the
 * named leaf's entry bundle, verified against the signed tree) and learns only commitments: the
 * chain's name and place, never a prescription id.
 */
import {
  decodeEntryBundle,
  hashesEqual,
  leafHash,
  storedHashIndex,
  TILE_WIDTH,
} from '../tlog/index.js';
import type { HashReader } from '../tlog/index.js';
import { readChainedEntry } from '../transparency/leaf-entry.js';
import type { ChainedLeaf } from '../transparency/leaf-entry.js';
import type { LogClient } from './log-client.js';
import { MonitorError } from './monitor-error.js';

/** Entry bundles of earlier tiles kept in one run (about 20 KiB each). */
const KEPT_BUNDLES = 64;

/** Checks chained entries in leaf order within one run. */
export class ChainPlaces {
  readonly #client: LogClient;
  readonly #reader: HashReader;
  readonly #sizes: string;
  /** Entries of earlier full tiles fetched and verified, by tile, oldest first out. */
  readonly #bundles = new Map<number, Buffer[]>();
  /** Whether a chained entry was seen: a legacy entry after it is refused. */
  #chained: boolean;

  constructor(client: LogClient, reader: HashReader, sizes: string, chained: boolean) {
    this.#client = client;
    this.#reader = reader;
    this.#sizes = sizes;
    this.#chained = chained;
  }

  /** Whether a chained entry was seen so far (kept in the state). */
  get chained(): boolean {
    return this.#chained;
  }

  /** Checks the entry of leaf `index` (its hash already verified); `tile`: its tile's entries. */
  async check(index: number, entry: Buffer, tile: readonly Buffer[]): Promise<void> {
    const leaf = readChainedEntry(entry);
    if (leaf === undefined) {
      if (this.#chained) {
        throw new MonitorError(
          'rewritten_entry',
          `${this.#sizes}: entry ${index} is not a chained entry`,
        );
      }
      return;
    }
    this.#chained = true;
    const name = Buffer.from(leaf.chain).toString('hex');
    const at = `chain ${name} place ${leaf.place}: leaf ${index}`;
    if (leaf.prev === undefined) {
      if (leaf.place === 0) return;
      throw new MonitorError('forked_chain', `${at} names no leaf before it`);
    }
    if (leaf.prev >= index) {
      throw new MonitorError('forked_chain', `${at} names a later leaf ${leaf.prev}`);
    }
    const before = await this.#entryOf(leaf.prev, index, tile);
    if (before === undefined || !Buffer.from(before.chain).equals(Buffer.from(leaf.chain))) {
      throw new MonitorError('forked_chain', `${at} names leaf ${leaf.prev} of another chain`);
    }
    if (before.place + 1 !== leaf.place) {
      throw new MonitorError(
        'forked_chain',
        `${at} follows leaf ${leaf.prev} at place ${before.place}: two leaves for place ` +
          `${Math.min(leaf.place, before.place + 1)} of this chain`,
      );
    }
  }

  /** The chained entry of leaf `prev`, from `tile` (leaf `index`'s) or its own verified bundle. */
  async #entryOf(
    prev: number,
    index: number,
    tile: readonly Buffer[],
  ): Promise<ChainedLeaf | undefined> {
    const t = Math.floor(prev / TILE_WIDTH);
    if (t === Math.floor(index / TILE_WIDTH)) return readChainedEntry(tile[prev % TILE_WIDTH]!);
    let entries = this.#bundles.get(t);
    if (entries === undefined) {
      entries = decodeEntryBundle(await this.#client.entries(t, TILE_WIDTH));
      if (entries.length !== TILE_WIDTH) {
        throw new MonitorError('rewritten_entry', `${this.#sizes}: entry bundle ${t} is short`);
      }
      if (this.#bundles.size >= KEPT_BUNDLES)
        this.#bundles.delete(this.#bundles.keys().next().value!);
      this.#bundles.set(t, entries);
    }
    const entry = entries[prev % TILE_WIDTH]!;
    const [hash] = await this.#reader([storedHashIndex(0, prev)]);
    if (!hashesEqual(leafHash(entry), hash!)) {
      throw new MonitorError(
        'rewritten_entry',
        `${this.#sizes}: entry ${prev} does not hash to leaf ${prev}`,
      );
    }
    return readChainedEntry(entry);
  }
}
