/**
 * Test support: loads `test/vectors/ledger/*.json` (STYLE.md point 7). A file without vectors
 * is an error, so a suite can never pass by running nothing.
 */
import { readFileSync, readdirSync } from 'node:fs';

const FOLDER = new URL('../../vectors/ledger/', import.meta.url);

/** One test vector: where it comes from, what goes in, what must come out. */
export interface Vector<I, E> {
  source: string;
  description?: string;
  input: I;
  expected: E;
}

/** Names of the vector files of the ledger. */
export function vectorFiles(): string[] {
  return readdirSync(FOLDER)
    .filter((name) => name.endsWith('.json'))
    .sort();
}

/** The vectors of one file; throws when the file holds none. */
export function loadVectors<I, E>(file: string): Vector<I, E>[] {
  const parsed = JSON.parse(readFileSync(new URL(file, FOLDER), 'utf8')) as {
    vectors?: Vector<I, E>[];
  };
  const vectors = parsed.vectors ?? [];
  if (vectors.length === 0) throw new Error(`no vectors in test/vectors/ledger/${file}`);
  for (const vector of vectors) {
    if (typeof vector.source !== 'string' || !('input' in vector) || !('expected' in vector)) {
      throw new Error(`malformed vector in ${file}`);
    }
  }
  return vectors;
}
