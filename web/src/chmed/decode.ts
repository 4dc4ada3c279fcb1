/**
 * Decodes the document part of a prescription link in the browser (SPEC.md §3), so the
 * prescription is shown without its content being sent anywhere for display:
 * `CHMED16A1<base64 of gzip of JSON>` or `CHMED16A0<JSON>`, or `CHMED23A.<base64 of gzip of JSON>`
 * (one string, or its parts put together by `assembleParts`), prefix case-insensitive. Read as
 * leniently as the service reads other issuers' links (SPEC.md §3): URL-safe or standard base64,
 * padded or not, wrapped over lines.
 */
import { lenientBase64 } from '../../../src/chmed16a/lenient-base64.js';
import { MAX_ENCODED_DATA_LENGTH } from '../../../src/chmed16a/limits.js';
import { assembleParts } from '../../../src/chmed23a/assemble.js';
import { isChmed23 } from '../../../src/chmed23a/transmission.js';

/** Decoded documents larger than this are refused, as the service refuses them (SPEC.md §9). */
const MAX_DOCUMENT_BYTES = 256 * 1024;

const PREFIX = /^chmed16a([01])/i;

/** Why a document part could not be read. */
export class DocumentDecodeError extends Error {
  constructor(readonly reason: 'prefix' | 'base64' | 'gzip' | 'too_large' | 'json') {
    super(`document cannot be decoded: ${reason}`);
    this.name = 'DocumentDecodeError';
  }
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> {
  const canonical = lenientBase64(text);
  if (canonical === undefined) throw new DocumentDecodeError('base64');
  let binary: string;
  try {
    binary = atob(canonical);
  } catch {
    throw new DocumentDecodeError('base64');
  }
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

// Reads the inflated stream chunk by chunk and stops at the cap, so a small hostile link cannot
// make the browser inflate gigabytes.
async function gunzip(bytes: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > MAX_DOCUMENT_BYTES) {
        await reader.cancel();
        throw new DocumentDecodeError('too_large');
      }
      chunks.push(value);
    }
  } catch (error) {
    if (error instanceof DocumentDecodeError) throw error;
    throw new DocumentDecodeError('gzip');
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new DocumentDecodeError('json');
  }
}

/** The base64 of a `CHMED23A.` string, its header checked; a numbered part alone is refused. */
function chmed23Data(text: string): string {
  try {
    // Twice the canonical length, as the service reads others' strings (line breaks allowed).
    return assembleParts([text], 2 * MAX_ENCODED_DATA_LENGTH).data;
  } catch {
    throw new DocumentDecodeError('prefix');
  }
}

/** The release of a document string, by its prefix. */
export type DocumentFormat = 'CHMED16A' | 'CHMED23A';

/** A document string decoded: its release and the JSON value it carries. */
export interface DecodedDocument {
  readonly format: DocumentFormat;
  readonly doc: unknown;
}

/**
 * Decodes a `CHMED16A0…`/`CHMED16A1…` string or a `CHMED23A.` string in one piece (parts are
 * joined before, see `part-collector.ts`) into the JSON value it carries.
 */
export async function decodeDocument(chmed: string): Promise<DecodedDocument> {
  const trimmed = chmed.trim();
  if (isChmed23(trimmed)) {
    return { format: 'CHMED23A', doc: await inflateJson(chmed23Data(trimmed)) };
  }
  const match = PREFIX.exec(trimmed);
  if (!match) throw new DocumentDecodeError('prefix');
  const data = trimmed.slice(match[0].length);
  if (match[1] === '0') {
    if (data.length > MAX_DOCUMENT_BYTES) throw new DocumentDecodeError('too_large');
    return { format: 'CHMED16A', doc: parseJson(data) };
  }
  return { format: 'CHMED16A', doc: await inflateJson(data) };
}

/** The JSON value of base64 of gzip of UTF-8 JSON. */
async function inflateJson(data: string): Promise<unknown> {
  const inflated = await gunzip(base64Bytes(data));
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflated);
  } catch {
    throw new DocumentDecodeError('json');
  }
  return parseJson(text);
}
