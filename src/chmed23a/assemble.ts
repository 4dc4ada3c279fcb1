/**
 * Putting a CHMED23A document back together from its parts, given in any order
 * (ChTransmissionFormat year 23 "ChunkMetaData"): every part from 1 to the total exactly once,
 * all saying the same total and sub-version; the data concatenated in index order is the data of
 * the document in one piece. The format carries no id that ties parts together, so parts of two
 * documents with the same total cannot be told apart here: the decoded document is then refused as
 * not base64, not gzip or not JSON.
 */
import { DocumentDecodeError } from '../chmed16a/decode-error.js';
import { PartsError } from './parts-error.js';
import { MAX_PARTS, readPart } from './transmission.js';
import type { Chmed23Part } from './transmission.js';

/** A document's data, assembled. */
export interface AssembledData {
  readonly subVersion: string;
  /** The base64 text, as a document in one piece carries it. */
  readonly data: string;
  /** How many strings it came from (1 for a document in one piece). */
  readonly parts: number;
}

/** The indexes from 1 to `total` that `seen` lacks, in order. */
function missingOf(seen: ReadonlyMap<number, unknown>, total: number): number[] {
  const missing: number[] = [];
  for (let i = 1; i <= total; i++) if (!seen.has(i)) missing.push(i);
  return missing;
}

/** Checks that chunked `parts` make one whole, naming what is wrong, and joins their data. */
function joinParts(parts: readonly Chmed23Part[]): AssembledData {
  const totals = [...new Set(parts.map((p) => p.total ?? 1))].sort((a, b) => a - b);
  if (totals.length > 1) throw PartsError.inconsistent(totals);
  if (new Set(parts.map((p) => p.subVersion)).size > 1) throw PartsError.inconsistent(totals);
  const total = totals[0]!;
  if (total > MAX_PARTS) throw PartsError.tooMany(MAX_PARTS);
  const byIndex = new Map<number, string>();
  for (const part of parts) {
    const index = part.index ?? 1;
    if (index > total) throw PartsError.outOfRange(index, total);
    if (byIndex.has(index)) throw PartsError.duplicate(index, total);
    byIndex.set(index, part.data);
  }
  const missing = missingOf(byIndex, total);
  if (missing.length > 0) throw PartsError.missing(missing, total);
  const data: string[] = [];
  for (let i = 1; i <= total; i++) data.push(byIndex.get(i)!);
  return { subVersion: parts[0]!.subVersion, data: data.join(''), parts: total };
}

/**
 * The data of the document that `texts` (one string, or its parts in any order) hold. Throws
 * `bad_prefix` for a string that is not CHMED23, {@link PartsError} for parts that do not make one
 * document. `maxDataLength` bounds the assembled data before anything decodes it (SPEC.md §9).
 */
export function assembleParts(texts: readonly string[], maxDataLength: number): AssembledData {
  if (texts.length === 0) throw new DocumentDecodeError('bad_prefix');
  if (texts.length > MAX_PARTS) throw PartsError.tooMany(MAX_PARTS);
  const parts = texts.map(readPart);
  let length = 0;
  for (const part of parts) length += part.data.length;
  if (length > maxDataLength) throw new DocumentDecodeError('too_large');
  const whole = parts.filter((p) => p.index === undefined);
  if (whole.length > 0) {
    if (parts.length > 1) throw PartsError.mixed();
    return { subVersion: whole[0]!.subVersion, data: whole[0]!.data, parts: 1 };
  }
  return joinParts(parts);
}
