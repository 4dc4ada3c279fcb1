/**
 * The bounds of the verification memory (`src/memory`): how much an instance remembers about
 * links, chains, signatures, terms, seals and log proofs. Each is an `ERX_MEMORY_*` variable
 * (README, configuration); docs/decisions.md lists what each bounds and who owns it.
 */

/** The bound of each remembered thing: entries, or megabytes where it says so. */
export interface MemoryBounds {
  /** Link facts (parse, schema, signature) by link text (`ERX_MEMORY_LINKS`). */
  readonly links: number;
  /** Verify answers and their bytes, estimated bytes (`ERX_MEMORY_ANSWERS_MB`, in MiB). */
  readonly answerBytes: number;
  /** Events whose ES384 signature verified (`ERX_MEMORY_SIGNATURES`). */
  readonly signatures: number;
  /** Leaf certificate validations (`ERX_MEMORY_LEAVES`). */
  readonly leaves: number;
  /** Prescription terms whose Ed25519 signature verified (`ERX_MEMORY_TERMS`). */
  readonly terms: number;
  /** Events proved to be the log's leaf at their position (`ERX_MEMORY_LOG_EVENTS`). */
  readonly logEvents: number;
  /** Stored hashes of the log's tree kept in memory (`ERX_MEMORY_TREE_HASHES`). */
  readonly treeHashes: number;
  /** Feed positions of the events this instance's growths took in (`ERX_MEMORY_GROWN`). */
  readonly grown: number;
  /** SQLite: characters of chains kept between reads (`ERX_MEMORY_CHAINS_MB`, in MiB). */
  readonly chainChars: number;
  /** SQLite: chains read once lately, remembered from their second read (`ERX_MEMORY_READ_ONCE`). */
  readonly readOnce: number;
}

const MIB = 1024 * 1024;

/** The bounds when nothing is configured (docs/decisions.md explains each). */
export const DEFAULT_MEMORY_BOUNDS: MemoryBounds = Object.freeze({
  links: 1_024,
  answerBytes: 16 * MIB,
  signatures: 100_000,
  leaves: 1_000,
  terms: 10_000,
  logEvents: 50_000,
  treeHashes: 1 << 15,
  grown: 16_384,
  chainChars: 8 * MIB,
  readOnce: 4_096,
});

/** Reads a whole number in `[min, max]` from the environment, `fallback` when unset. */
export type ReadInteger = (name: string, fallback: number, min: number, max: number) => number;

/** The memory's bounds from the environment, through the configuration's own number reader. */
export function readMemoryBounds(integer: ReadInteger): MemoryBounds {
  const d = DEFAULT_MEMORY_BOUNDS;
  const entries = (name: string, fallback: number): number => integer(name, fallback, 1, 1e8);
  const mib = (name: string, fallback: number): number =>
    integer(name, fallback / MIB, 1, 64 * 1024) * MIB;
  return Object.freeze({
    links: entries('ERX_MEMORY_LINKS', d.links),
    answerBytes: mib('ERX_MEMORY_ANSWERS_MB', d.answerBytes),
    signatures: entries('ERX_MEMORY_SIGNATURES', d.signatures),
    leaves: entries('ERX_MEMORY_LEAVES', d.leaves),
    terms: entries('ERX_MEMORY_TERMS', d.terms),
    logEvents: entries('ERX_MEMORY_LOG_EVENTS', d.logEvents),
    treeHashes: entries('ERX_MEMORY_TREE_HASHES', d.treeHashes),
    grown: entries('ERX_MEMORY_GROWN', d.grown),
    chainChars: mib('ERX_MEMORY_CHAINS_MB', d.chainChars),
    readOnce: entries('ERX_MEMORY_READ_ONCE', d.readOnce),
  });
}
