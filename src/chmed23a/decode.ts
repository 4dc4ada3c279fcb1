/**
 * Reading a CHMED23A document from its ChTransmissionFormat string or strings, with the limits of
 * SPEC.md §9 applied to the assembled data before it is inflated.
 */
import { MAX_ENCODED_DATA_LENGTH } from '../chmed16a/index.js';
import { inflateLenient, inflateStrict, parseDocument } from '../chmed16a/document-json.js';
import { assembleParts } from './assemble.js';
import type { AssembledData } from './assemble.js';
import { wholeString } from './transmission.js';

/** A CHMED23A document read, with the string of it in one piece. */
export interface ReadChmed23 {
  /** The JSON object, not yet validated. */
  readonly doc: Record<string, unknown>;
  /** `CHMED23<SubVersion>.<data>`, the document in one piece as the parts spell it. */
  readonly whole: string;
  /** How many strings it was read from. */
  readonly parts: number;
}

function wholeOf(assembled: AssembledData): string {
  return wholeString(assembled.subVersion, assembled.data);
}

/**
 * Decodes one CHMED23A string in one piece as erx takes it at create: canonical base64 (padded,
 * standard alphabet, nothing around it). Throws `DocumentDecodeError` or `PartsError`.
 */
export function decodeChmed23(text: string): ReadChmed23 {
  const assembled = assembleParts([text], MAX_ENCODED_DATA_LENGTH);
  return { doc: parseDocument(inflateStrict(assembled.data)), whole: wholeOf(assembled), parts: 1 };
}

/**
 * Reads a CHMED23A document whoever wrote it, from one string or its parts in any order: blanks
 * around each string are ignored and the base64 may be spelled as `inflateLenient` reads it. For
 * reading and display only.
 */
export function readChmed23(texts: readonly string[]): ReadChmed23 {
  // Twice the canonical length: the lenient reading allows line breaks (see `inflateLenient`).
  const assembled = assembleParts(
    texts.map((t) => t.trim()),
    2 * MAX_ENCODED_DATA_LENGTH,
  );
  return {
    doc: parseDocument(inflateLenient(assembled.data)),
    whole: wholeOf(assembled),
    parts: assembled.parts,
  };
}
