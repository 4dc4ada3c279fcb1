#!/usr/bin/env node
// Runs every *.test.ts under src/, client/, test/ and bench/ with Node's own test runner, from
// their JavaScript in `.test-build/` (scripts/build-tests.mjs compiles it first, in about 2 s);
// Node 20's `--test` does not discover .ts files, so the list is built here. Then the
// end-to-end suite (test/e2e) runs a second time on PostgreSQL (ERX_TEST_ENGINE=postgres), so both
// engines pass the same suite. Without PostgreSQL that pass is skipped with the reason, unless CI
// or ERX_REQUIRE_PG=1 requires it. Files named `*.solo.*` measure latency under load: they run
// after the others, one at a time, so no other suite competes for the two cores.
// Usage: node scripts/run-tests.mjs [path-substring ...]
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { connect } from 'node:net';
import { TEST_BUILD, buildTests } from './build-tests.mjs';

const roots = ['src', 'client', 'test', 'bench'];
const filters = process.argv.slice(2);

function walk(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name === 'dist') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...walk(path));
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

// Each phase's failures are collected in a file of their own and printed again at the end.
const failuresDir = mkdtempSync(join(tmpdir(), 'erx-test-failures-'));
const phases = [];

function run(label, files, env) {
  const failures = join(failuresDir, `${phases.length}.txt`);
  const result = spawnSync(
    process.execPath,
    [
      '--enable-source-maps',
      '--test',
      '--test-concurrency=2',
      '--test-reporter=tap',
      '--test-reporter-destination=stdout',
      '--test-reporter=./scripts/failures-reporter.mjs',
      `--test-reporter-destination=${failures}`,
      ...files.map(compiled),
    ],
    { stdio: 'inherit', env: { ...process.env, ...env } },
  );
  const status = result.status ?? 1;
  phases.push({ label, status, failures });
  return status;
}

/** The compiled module of the test file `file` (a path relative to the repository). */
function compiled(file) {
  return relative('.', join(TEST_BUILD, file.replace(/\.ts$/, '.js')));
}

function summary() {
  console.log('\nrun-tests: summary');
  const perFile = new Map();
  for (const { label, status, failures } of phases) {
    console.log(`run-tests: ${status === 0 ? 'passed' : `FAILED (exit ${status})`}: ${label}`);
    let lines = '';
    try {
      lines = readFileSync(failures, 'utf8');
    } catch {
      // No test reported anything, or the runner died before writing.
    }
    for (const line of lines.split('\n').filter(Boolean)) {
      const [kind, what, ms] = line.split('\t');
      if (kind === 'fail') console.log(`run-tests:   not ok ${what}`);
      else perFile.set(`${what} (${label})`, (perFile.get(`${what} (${label})`) ?? 0) + Number(ms));
    }
  }
  const slowest = [...perFile].sort((a, b) => b[1] - a[1]).slice(0, 12);
  if (slowest.length > 0) console.log("run-tests: the slowest files (their tests' time, in s)");
  for (const [file, ms] of slowest) {
    console.log(`run-tests:   ${(ms / 1000).toFixed(1).padStart(6)}  ${file}`);
  }
  rmSync(failuresDir, { recursive: true, force: true });
}

function postgresReachable() {
  const url = new URL(process.env.ERX_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres');
  return new Promise((resolve) => {
    const socket = connect({ host: url.hostname, port: Number(url.port || 5432) });
    socket.setTimeout(2000);
    socket.once('connect', () => resolve(socket.end() && true));
    socket.once('timeout', () => resolve(socket.destroy() && false));
    socket.once('error', () => resolve(false));
  });
}

const files = roots
  .flatMap((root) => walk(root))
  .map((f) => relative('.', f))
  .filter((f) => filters.length === 0 || filters.some((s) => f.includes(s)))
  .sort();

if (files.length === 0) {
  console.error(`run-tests: no test file matched ${filters.join(' ') || '(all)'}`);
  process.exit(1);
}

await buildTests();
const solo = files.filter((f) => f.includes('.solo.'));
// The long poles (the summary names them) start first, so that none of them is left running alone
// on one core at the end of the phase; the two crash suites not side by side (each is heavy).
const LONG_POLES = [
  'test/crash/kill9-sqlite.int.test.ts',
  'test/web/accessibility.int.test.ts',
  'test/crash/kill9-postgres.int.test.ts',
  'test/robustness/multi-instance.int.test.ts',
  'test/web/catalog.int.test.ts',
  'test/e2e/prescriber-profile.int.test.ts',
];
const rank = (f) => (LONG_POLES.includes(f) ? LONG_POLES.indexOf(f) : LONG_POLES.length);
const shared = files.filter((f) => !solo.includes(f)).sort((a, b) => rank(a) - rank(b));
let status = shared.length > 0 ? run(`${shared.length} files together`, shared, {}) : 0;
for (const file of solo) {
  console.log(`\nrun-tests: ${file} alone`);
  status = run(`${file} alone`, [file], {}) || status;
}
const e2e = files
  .filter((f) => f.startsWith(join('test', 'e2e')))
  .sort((a, b) => rank(a) - rank(b));
if (e2e.length > 0 && process.env.ERX_TEST_ENGINE === undefined) {
  const required =
    (process.env.CI && process.env.CI !== 'false') || process.env.ERX_REQUIRE_PG === '1';
  if (await postgresReachable()) {
    console.log(`\nrun-tests: the end-to-end suite again on PostgreSQL (${e2e.length} files)`);
    status =
      run(`the end-to-end suite on PostgreSQL`, e2e, { ERX_TEST_ENGINE: 'postgres' }) || status;
  } else if (required) {
    console.error('run-tests: PostgreSQL is unreachable but required (CI or ERX_REQUIRE_PG=1)');
    status = 1;
  } else {
    console.log('run-tests: end-to-end suite on PostgreSQL skipped: PostgreSQL is unreachable');
  }
}
summary();
process.exit(status);
