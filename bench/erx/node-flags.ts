/**
 * The node flags erx runs with, read from the first line of its command
 * (`#!/usr/bin/env -S node <flags>`), so the bench starts erx exactly as `erx serve` and
 * `npm start` do (docs/decisions.md, "V8 heap flags on the `erx` command").
 */
import { readFileSync } from 'node:fs';

/** The flags the `#!` line of `file` gives node; none when it runs plain `node`. */
export function nodeFlagsOf(file: string): string[] {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0] ?? '';
  const words = first.replace(/^#!/, '').trim().split(/\s+/);
  const node = words.indexOf('node');
  if (!first.startsWith('#!') || node < 0)
    throw new Error(`${file} does not start with a node #! line`);
  return words.slice(node + 1);
}
