/**
 * A small seeded pseudo-random generator (sfc32), so that every fuzz run is reproducible from the
 * seed it prints. Not for anything secret.
 */

/** The seed of a run: `ERX_FUZZ_SEED` when set (decimal or 0x hex), else a fresh one. */
export function fuzzSeed(fromEnv: string | undefined): number {
  if (fromEnv !== undefined && fromEnv.trim() !== '') {
    const seed = Number(fromEnv.trim());
    if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`bad ERX_FUZZ_SEED ${fromEnv}`);
    return seed >>> 0;
  }
  return (Math.random() * 2 ** 32) >>> 0;
}

/** Deterministic random choices from a 32-bit seed. */
export class Prng {
  #a: number;
  #b: number;
  #c: number;
  #d: number;

  constructor(seed: number) {
    this.#a = 0x9e3779b9;
    this.#b = 0x243f6a88;
    this.#c = 0xb7e15162;
    this.#d = seed >>> 0;
    // Mixes the seed into the whole state before the first output.
    for (let i = 0; i < 15; i++) this.next();
  }

  /** A float in [0, 1). */
  next(): number {
    const t = (((this.#a + this.#b) | 0) + this.#d) | 0;
    this.#d = (this.#d + 1) | 0;
    this.#a = this.#b ^ (this.#b >>> 9);
    this.#b = (this.#c + (this.#c << 3)) | 0;
    this.#c = (this.#c << 21) | (this.#c >>> 11);
    this.#c = (this.#c + t) | 0;
    return (t >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** An integer in [lo, hi]. */
  range(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** One element of a non-empty list. */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[this.int(items.length)] as T;
  }

  /** One element of a list of `[weight, value]` pairs, chosen by weight. */
  weighted<T>(items: readonly (readonly [number, T])[]): T {
    const total = items.reduce((sum, [w]) => sum + w, 0);
    let x = this.next() * total;
    for (const [w, value] of items) {
      x -= w;
      if (x < 0) return value;
    }
    return (items[items.length - 1] as readonly [number, T])[1];
  }

  /** `n` random bytes. */
  bytes(n: number): Buffer {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i++) out[i] = this.int(256);
    return out;
  }

  /** A derived generator, so one choice does not shift every later one. */
  fork(salt: number): Prng {
    return new Prng((this.int(2 ** 32) ^ Math.imul(salt + 1, 0x9e3779b1)) >>> 0);
  }
}
