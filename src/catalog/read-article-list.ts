/**
 * Reads an article list into the rows of a catalogue, streaming: the file is decoded and parsed
 * piece by piece, and only the rows kept are held (about 100 bytes each). Nothing is written
 * here; the caller replaces the catalogue with the rows once the whole list has been read, so a
 * list that fails half-way changes nothing.
 */
import { createReadStream } from 'node:fs';
import type { CatalogRow } from '../store/catalog.js';
import { ArticleListParser } from './article-list-parser.js';
import type { ArticleListFormat } from './article-list-parser.js';
import { toCatalogRow } from './catalog-article.js';
import type { SkipReason } from './catalog-article.js';
import { CatalogFileError } from './catalog-file-error.js';

/** Most articles one list may hold (Refdata's has about 100,000): bounds the memory of a read. */
export const MAX_ARTICLES = 1_000_000;

/** What a list held. */
export interface ArticleList {
  format: ArticleListFormat;
  /** The rows to store, one per GTIN, in list order. */
  rows: CatalogRow[];
  /** Articles the list holds, kept or not. */
  read: number;
  /** Articles not kept, by reason. */
  skipped: Record<SkipReason, number>;
}

/** The first bytes of a ZIP archive ("PK\3\4"). */
const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];

function isZip(bytes: Uint8Array): boolean {
  return ZIP_MAGIC.every((byte, i) => bytes[i] === byte);
}

/** Reads the list whose bytes `source` yields; {@link CatalogFileError} when it is not one. */
export async function readArticles(source: AsyncIterable<Uint8Array>): Promise<ArticleList> {
  const rows = new Map<string, CatalogRow>();
  const skipped: Record<SkipReason, number> = { gtin: 0, name: 0, duplicate: 0 };
  let read = 0;
  const parser = new ArticleListParser((raw) => {
    read++;
    if (read > MAX_ARTICLES) throw new CatalogFileError('too_many');
    const row = toCatalogRow(raw);
    if (typeof row === 'string') skipped[row]++;
    else if (rows.has(row.gtin)) skipped.duplicate++;
    else rows.set(row.gtin, row);
  });
  // fatal: bytes that are not UTF-8 end the read rather than becoming U+FFFD in a name.
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const decode = (bytes: Uint8Array, stream: boolean): string => {
    try {
      return decoder.decode(bytes, { stream });
    } catch {
      throw new CatalogFileError('not_utf8');
    }
  };
  let first = true;
  for await (const chunk of source) {
    if (first && isZip(chunk)) throw new CatalogFileError('zip');
    first = false;
    parser.write(decode(chunk, true));
  }
  parser.write(decode(new Uint8Array(0), false));
  const format = parser.close();
  return { format, rows: [...rows.values()], read, skipped };
}

/** Node's file errors in words (the code alone, never a path from elsewhere). */
function fileProblem(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'a directory';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** Reads the article list in the file at `path` (see {@link readArticles}). */
export async function readArticleListFile(path: string): Promise<ArticleList> {
  // A high water mark of 1 MiB: fewer, larger pieces for the parser on a list of tens of MB.
  const stream = createReadStream(path, { highWaterMark: 1 << 20 });
  try {
    return await readArticles(stream);
  } catch (error) {
    if (error instanceof CatalogFileError) throw error;
    throw new CatalogFileError('unreadable', { message: `${path}: ${fileProblem(error)}` });
  } finally {
    stream.destroy();
  }
}
