// Compiles the TypeScript the tests run (src, client, test, bench, scripts, web/src) to JavaScript in
// `.test-build/`, one file per file and no bundling, so that every test process, every erx child
// process and every worker thread loads plain JavaScript instead of paying for tsx's loader (about
// 4 s of CPU per test file on two cores). Types are not checked here: `npm run typecheck` does
// that. Everything else the compiled modules reach by a relative path (fixtures, vectors, the
// README, the built page) is linked into the same place, so that `new URL('../../x', import.meta.url)`
// means the same file from the build as from the sources.
// Usage: node scripts/build-tests.mjs (prints the build's folder); or import { buildTests }.
import { mkdirSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** Where the compiled tests go; tools ignore it like `dist/`. */
export const TEST_BUILD = join(ROOT, '.test-build');
/** The folders whose TypeScript is compiled. */
const COMPILED = ['src', 'client', 'test', 'bench', 'scripts', 'web/src'];
/** Never compiled nor linked. */
const SKIPPED = new Set(['node_modules', 'dist', 'results']);

const isSource = (name) => /\.tsx?$/.test(name) && !name.endsWith('.d.ts');

function holdsSources(dir) {
  return readdirSync(dir, { withFileTypes: true }).some((entry) =>
    entry.isDirectory()
      ? !SKIPPED.has(entry.name) && holdsSources(join(dir, entry.name))
      : isSource(entry.name),
  );
}

/** Collects `dir`'s sources in `sources`, and links everything else into the build. */
function walk(dir, sources) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (SKIPPED.has(entry.name)) continue;
    if (entry.isDirectory() && holdsSources(path)) walk(path, sources);
    else if (!entry.isDirectory() && isSource(entry.name)) sources.push(path);
    else link(path);
  }
}

function link(path) {
  const target = join(TEST_BUILD, relative(ROOT, path));
  mkdirSync(dirname(target), { recursive: true });
  symlinkSync(relative(dirname(target), path), target);
}

/** Builds `.test-build/` afresh (a deleted source leaves no module behind); about 2 s. */
export async function buildTests() {
  rmSync(TEST_BUILD, { recursive: true, force: true });
  const sources = [];
  for (const folder of COMPILED) walk(join(ROOT, folder), sources);
  // The rest of the repository (README, docs, examples, the built page under dist/) by name.
  const compiledTops = new Set(COMPILED.map((folder) => folder.split('/')[0]));
  for (const name of readdirSync(ROOT)) {
    if (name.startsWith('.') || name === 'node_modules' || compiledTops.has(name)) continue;
    link(join(ROOT, name));
  }
  const web = join(ROOT, 'web');
  for (const name of readdirSync(web)) if (name !== 'src') link(join(web, name));
  await build({
    entryPoints: sources,
    outdir: TEST_BUILD,
    outbase: ROOT,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    logLevel: 'warning',
  });
  return TEST_BUILD;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const started = Date.now();
  const dir = await buildTests();
  console.log(`${relative(process.cwd(), dir)} built in ${Date.now() - started} ms`);
}
