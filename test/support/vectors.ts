/**
 * Reads a folder of test vectors, `test/vectors/<folder>/*.json`, each file an array of vectors
 * (STYLE.md point 7). The suites assert that the folder is not empty.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Every vector of `test/vectors/<folder>/`, with the name of its file, files in name order. */
export function vectorFolder<V>(folder: string): Array<{ file: string; vector: V }> {
  const dir = new URL(`../vectors/${folder}/`, import.meta.url);
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort()
    .flatMap((file) =>
      (JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as V[]).map((vector) => ({
        file,
        vector,
      })),
    );
}
