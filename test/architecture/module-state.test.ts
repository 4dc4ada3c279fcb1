/**
 * No module of `src/` keeps mutable state at its top level (../shared/STYLE.md "State is
 * explicit"): state lives in objects the runtime creates and passes down. Allowed at the top level
 * are constants only: a `Set`/`Map` typed `ReadonlySet`/`ReadonlyMap`, an array typed
 * `readonly T[]` or never changed, anything frozen.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../support/modules.js';

const SRC = join(REPO_ROOT, 'src');

/** Containers whose contents change without the binding changing. */
const CONTAINER =
  /^(?:export )?const (\w+)(?::\s*([^=]+?))?\s*=\s*(?:new (?:Map|Set|WeakMap|WeakSet|WeakRef|Array|LruCache|LRUCache|Uint8Array|Int32Array|Float64Array|BigInt64Array)\b|Buffer\.alloc)/;
const ARRAY = /^(?:export )?const (\w+)(?::\s*([^=]+?))?\s*=\s*\[/;
const BINDING = /^(?:export )?(?:let|var)\s+(\w+)/;

function readOnlyType(type: string | undefined): boolean {
  return type !== undefined && /^(?:Readonly(?:Set|Map|Array)<|readonly )/.test(type.trim());
}

function mutated(source: string, name: string): boolean {
  const at = `\\b${name}`;
  return new RegExp(
    `${at}\\.(?:push|pop|shift|unshift|splice|sort|reverse|fill|copyWithin)\\(|${at}\\.length\\s*=[^=]|${at}\\[[^\\]]+\\]\\s*=[^=]`,
  ).test(source);
}

/** The module-level mutable state in `source`: one `line: text` per finding. */
export function moduleState(source: string): string[] {
  const found: string[] = [];
  source.split('\n').forEach((text, index) => {
    const where = `${index + 1}: ${text.trim()}`;
    if (BINDING.test(text)) {
      found.push(where);
      return;
    }
    if (text.includes('Object.freeze(')) return;
    const container = CONTAINER.exec(text);
    if (container) {
      if (!readOnlyType(container[2])) found.push(where);
      return;
    }
    const array = ARRAY.exec(text);
    if (array && !readOnlyType(array[2]) && mutated(source, array[1]!)) found.push(where);
  });
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const isSource = /\.(?:ts|mts|mjs)$/.test(entry.name) && !/\.test\.ts$/.test(entry.name);
    return isSource ? [path] : [];
  });
}

describe('module-level state', () => {
  test('the scanner finds top-level bindings, changing containers and changed arrays', () => {
    const found = moduleState(
      [
        'let anchor = 0n;',
        'export let last = 0n;',
        'var legacy = 1;',
        'const shed = new WeakSet<object>();',
        'const seen = new Map<string, number>();',
        'const pool = Buffer.alloc(4096);',
        'const queue: string[] = [];',
        'function add(item: string): void {',
        '  queue.push(item);',
        '  let local = 1;',
        '}',
      ].join('\n'),
    );
    assert.deepEqual(
      found.map((line) => Number(line.split(':')[0])),
      [1, 2, 3, 4, 5, 6, 7],
    );
  });

  test('the scanner lets constants be', () => {
    const found = moduleState(
      [
        "const KEYS: ReadonlySet<string> = new Set(['a']);",
        'const CODES: ReadonlyMap<string, number> = new Map([["a", 1]]);',
        "const NAMES: readonly string[] = ['a'];",
        "const TAGS = ['events'];",
        "const FROZEN = Object.freeze(new Map([['a', 1]]));",
        'const LIMIT = 10;',
        'function f(): void {',
        '  const local = new Map<string, number>();',
        '}',
      ].join('\n'),
    );
    assert.deepEqual(found, []);
  });

  test('src/ holds no module-level mutable state', () => {
    const files = sourceFiles(SRC);
    assert.ok(files.length > 100, `read ${files.length} files`);
    const findings = files.flatMap((file) =>
      moduleState(readFileSync(file, 'utf8')).map((line) => `${relative(SRC, file)}:${line}`),
    );
    assert.deepEqual(findings, []);
  });
});
