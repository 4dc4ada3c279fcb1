/**
 * The service's rooms and the HTTP layer's ports (docs/decisions.md "The service's rooms"):
 * `src/http` reaches the service through its façade and the ports of `AppDeps`, never through the
 * service's own dependencies; each room of `src/service` imports only the rooms below it, and
 * every file of the service lives in a room or is one of the shared files beside the façade.
 */
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, test } from 'node:test';
import { REPO_ROOT } from '../support/modules.js';

const SRC = join(REPO_ROOT, 'src');
const SERVICE = join(SRC, 'service');

/** What each room may import of the other rooms (anything of the shared files at the top). */
const ROOMS: Readonly<Record<string, readonly string[]>> = {
  rules: [],
  view: ['rules'],
  verification: ['rules'],
  feed: ['view'],
  append: ['rules', 'verification', 'view'],
  operations: ['append', 'rules', 'verification', 'view'],
};

/** The façade and what every room shares, at the top of `src/service`. */
const TOP: readonly string[] = [
  'deps.ts',
  'ids.ts',
  'index.ts',
  'prescription-service.ts',
  'types.ts',
];
const FACADE: readonly string[] = ['index.ts', 'prescription-service.ts'];

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return files(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const isTest = (file: string): boolean => /\.test\.ts$/.test(file);

/** The files `file` imports by a relative path, as absolute `.ts` paths. */
export function relativeImports(file: string, source: string): string[] {
  const specifiers = [
    ...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.{1,2}\/[^']+)'/g),
  ];
  return specifiers.map((match) => resolve(dirname(file), match[1]!.replace(/\.js$/, '.ts')));
}

/** The room of a file of `src/service` (`''` for the top), or undefined outside it. */
function roomOf(file: string): string | undefined {
  const path = relative(SERVICE, file);
  if (path.startsWith('..')) return undefined;
  const parts = path.split(sep);
  return parts.length === 1 ? '' : parts[0];
}

describe('rooms and ports', () => {
  test('the import reader finds static, type and dynamic imports', () => {
    const found = relativeImports(
      '/a/b/c.ts',
      [
        "import { x } from './x.js';",
        "import type { Y } from '../y.js';",
        "const z = await import('./z/z.js');",
        "import 'node:fs';",
      ].join('\n'),
    );
    assert.deepEqual(found, ['/a/b/x.ts', '/a/y.ts', '/a/b/z/z.ts']);
  });

  test('src/http never names the service’s own dependencies', () => {
    const naming = files(join(SRC, 'http')).filter((file) =>
      /prescriptions\s*\.\s*deps\b/.test(readFileSync(file, 'utf8')),
    );
    assert.deepEqual(
      naming.map((file) => relative(SRC, file)),
      [],
    );
  });

  test('src/http and src/server import the service through its façade only', () => {
    const found = [join(SRC, 'http'), join(SRC, 'server')].flatMap(files).flatMap((file) =>
      relativeImports(file, readFileSync(file, 'utf8'))
        .filter((target) => roomOf(target) !== undefined && target !== join(SERVICE, 'index.ts'))
        .map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`),
    );
    assert.deepEqual(found, []);
  });

  test('every file of src/service is in a room or one of the shared files at the top', () => {
    const stray = files(SERVICE).filter((file) => {
      const room = roomOf(file)!;
      return room === '' ? !TOP.includes(relative(SERVICE, file)) : !(room in ROOMS);
    });
    assert.deepEqual(
      stray.map((file) => relative(SRC, file)),
      [],
    );
  });

  test('each room imports only the rooms below it, and never the façade', () => {
    const found = files(SERVICE)
      .filter((file) => !isTest(file) && roomOf(file) !== '')
      .flatMap((file) => {
        const room = roomOf(file)!;
        return relativeImports(file, readFileSync(file, 'utf8'))
          .filter((target) => {
            const to = roomOf(target);
            if (to === undefined || to === room) return false;
            if (to === '') return FACADE.includes(relative(SERVICE, target));
            return !ROOMS[room]!.includes(to);
          })
          .map((target) => `${relative(SRC, file)} -> ${relative(SRC, target)}`);
      });
    assert.deepEqual(found, []);
  });
});
