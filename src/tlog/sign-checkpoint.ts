/**
 * Making a log's checkpoint: the tree head of the first `size` leaves from the stored hashes,
 * formatted as c2sp.org/tlog-checkpoint and signed by the log (and any cosigner at hand).
 */
import type { Checkpoint } from './checkpoint.js';
import { formatCheckpoint } from './checkpoint.js';
import type { HashReader } from './hash-reader.js';
import { signNote } from './note.js';
import type { NoteSigner } from './note.js';
import { treeHash } from './tree-hash.js';

/** The checkpoint of the tree of `size` leaves and its signed note (signers in order). */
export async function signCheckpoint(
  origin: string,
  size: number,
  reader: HashReader,
  signers: readonly NoteSigner[],
): Promise<{ checkpoint: Checkpoint; note: string }> {
  const checkpoint: Checkpoint = { origin, size, root: await treeHash(size, reader) };
  return { checkpoint, note: await signNote(formatCheckpoint(checkpoint), signers) };
}
