/**
 * Collecting the QR codes of a CHMED23A document split over several (docs/decisions.md "One
 * signed link over several QR codes"), as the counter and the patient view read them one at a
 * time, in any order: each is a signed part link (`…#CHMED23A.2/3.…&i=…&t=…&s=…`) or a bare part
 * (`CHMED23A.2/3.…`). A code read again is ignored; another code for a part already read, a code
 * of another document, or of another total is refused and named. Once every part is read they are
 * joined into the link (or string) in one piece, which is then read as if it had been one code.
 */
import { assembleParts } from '../../../src/chmed23a/assemble.js';
import { PartsError } from '../../../src/chmed23a/parts-error.js';
import type { PartsErrorReason } from '../../../src/chmed23a/parts-error.js';
import { MAX_PARTS, isChmed23, readPart, wholeString } from '../../../src/chmed23a/transmission.js';
import { MAX_ENCODED_DATA_LENGTH } from '../../../src/chmed16a/limits.js';
import { joinPartLinks } from '../../../src/link/parts.js';

/** The parts read so far of one document. */
export interface Collected {
  /** What every part of this document shares: the link around the part, empty for bare parts. */
  readonly key: string;
  readonly total: number;
  /** The texts read, by part number. */
  readonly parts: ReadonlyMap<number, string>;
}

/** What reading one more text gives. */
export type Collect =
  /** Not a numbered part: read it as it is (a link, a document in one piece, anything else). */
  | { readonly kind: 'one'; readonly text: string }
  /** Parts still missing (also when the text was a part already read). */
  | { readonly kind: 'partial'; readonly collected: Collected; readonly missing: number[] }
  /** Every part read: the link or string in one piece. */
  | { readonly kind: 'complete'; readonly text: string }
  /** The text does not fit the parts read so far, which stay as they were. */
  | {
      readonly kind: 'refused';
      readonly collected: Collected | undefined;
      readonly reason: PartsErrorReason;
      readonly params: Readonly<Record<string, unknown>>;
    };

interface Part {
  readonly key: string;
  readonly index: number;
  readonly total: number;
}

/** The part `text` holds, or undefined when it holds none (not CHMED23, or in one piece). */
function partOf(text: string): Part | undefined {
  const hash = text.indexOf('#');
  const fragment = hash < 0 ? text : text.slice(hash + 1);
  const amp = fragment.indexOf('&');
  const chmed = amp < 0 ? fragment : fragment.slice(0, amp);
  if (!isChmed23(chmed)) return undefined;
  try {
    const part = readPart(chmed);
    if (part.index === undefined || part.total === undefined) return undefined;
    const key = hash < 0 ? '' : `${text.slice(0, hash)}#${amp < 0 ? '' : fragment.slice(amp)}`;
    return { key, index: part.index, total: part.total };
  } catch {
    return undefined;
  }
}

/** True when `text` holds a numbered CHMED23 part, bare or in a link. */
export function isPartText(text: string): boolean {
  return partOf(text.trim()) !== undefined;
}

/** The numbers from 1 to the total not yet read. */
function missingOf(collected: Collected): number[] {
  const missing: number[] = [];
  for (let i = 1; i <= collected.total; i++) if (!collected.parts.has(i)) missing.push(i);
  return missing;
}

function refused(collected: Collected | undefined, error: unknown): Collect {
  if (error instanceof PartsError) {
    return { kind: 'refused', collected, reason: error.reason, params: error.params ?? {} };
  }
  return { kind: 'refused', collected, reason: 'inconsistent_parts', params: {} };
}

/** All parts joined: the link in one piece, or the bare string in one piece. */
function joined(collected: Collected): string {
  const texts = [...collected.parts.keys()]
    .sort((a, b) => a - b)
    .map((i) => collected.parts.get(i)!);
  if (collected.key !== '') return joinPartLinks(texts);
  const assembled = assembleParts(texts, 2 * MAX_ENCODED_DATA_LENGTH);
  return wholeString(assembled.subVersion, assembled.data);
}

/** Reads `input` against the parts read so far (`collected`, undefined for none). */
export function collectPart(collected: Collected | undefined, input: string): Collect {
  const text = input.trim();
  const part = partOf(text);
  if (part === undefined) return { kind: 'one', text };
  if (part.index > part.total) {
    return refused(collected, PartsError.outOfRange(part.index, part.total));
  }
  if (part.total > MAX_PARTS) return refused(collected, PartsError.tooMany(MAX_PARTS));
  if (collected !== undefined && part.key !== collected.key) {
    return refused(collected, PartsError.differentLinks());
  }
  if (collected !== undefined && part.total !== collected.total) {
    return refused(
      collected,
      PartsError.inconsistent([collected.total, part.total].sort((a, b) => a - b)),
    );
  }
  const known = collected?.parts.get(part.index);
  if (known !== undefined && known !== text) {
    return refused(collected, PartsError.duplicate(part.index, part.total));
  }
  const parts = new Map(collected?.parts ?? []);
  parts.set(part.index, text);
  const next: Collected = { key: part.key, total: part.total, parts };
  const missing = missingOf(next);
  if (missing.length > 0) return { kind: 'partial', collected: next, missing };
  try {
    return { kind: 'complete', text: joined(next) };
  } catch (error) {
    return refused(undefined, error);
  }
}
