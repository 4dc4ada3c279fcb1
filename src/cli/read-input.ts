/** Reads a command-line argument that may name a file (`@path`) or stand for itself. */
import { readFileSync } from 'node:fs';
import { CliUsageError } from './usage-error.js';

/** Returns the text of `@file`, or `arg` itself. */
export function argOrFile(arg: string): string {
  return arg.startsWith('@') ? readText(arg.slice(1)) : arg;
}

/** Reads a UTF-8 file, turning a missing or unreadable file into a usage error. */
export function readText(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? 'unreadable';
    throw new CliUsageError(`cannot read ${path} (${code})`);
  }
}

/** Reads and parses a JSON file, with a one-line error for bad JSON. */
export function readJsonFile(path: string): unknown {
  const text = readText(path);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new CliUsageError(`${path} is not valid JSON`);
  }
}
