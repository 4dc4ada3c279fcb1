/**
 * The Go interop checker (test/interop/tlogcheck): built offline in GOPATH mode against Debian's
 * golang-golang-x-mod-dev, run with one JSON request on stdin. Without `go` or x/mod the suite
 * skips with a printed reason, except under CI (`CI` set), where that is a failure.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where Debian's golang-golang-x-mod-dev puts golang.org/x/mod. */
export const GO_X_MOD = '/usr/share/gocode/src/golang.org/x/mod/sumdb';
const SOURCE = new URL('../../interop/tlogcheck/', import.meta.url).pathname;

function goEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    GO111MODULE: 'off',
    GOPATH: '/usr/share/gocode',
    GOFLAGS: '',
    GOPROXY: 'off',
    GOCACHE: process.env.GOCACHE ?? join(tmpdir(), 'erx-go-build-cache'),
  };
}

/** Undefined when the checker can be built; otherwise why not. Throws instead under CI. */
export function goSkipReason(): string | undefined {
  const version = spawnSync('go', ['version'], { encoding: 'utf8' });
  let reason: string | undefined;
  if (version.error !== undefined || version.status !== 0) reason = '`go` is not installed';
  else if (!existsSync(GO_X_MOD)) reason = `golang.org/x/mod is not at ${GO_X_MOD}`;
  if (reason === undefined) return undefined;
  const ci = process.env.CI;
  if (ci !== undefined && ci !== '' && ci !== 'false') {
    throw new Error(
      `${reason} (required under CI: apt-get install golang-go golang-golang-x-mod-dev)`,
    );
  }
  console.log(`# skipping Go tlog interop tests: ${reason}`);
  return reason;
}

/** Builds the checker into `dir`; returns the binary's path. */
export function buildChecker(dir: string): string {
  const binary = join(dir, 'tlogcheck');
  const built = spawnSync('go', ['build', '-o', binary, '.'], {
    cwd: SOURCE,
    env: goEnv(),
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`go build failed: ${built.stderr}`);
  return binary;
}

/** What one run of the checker answered. */
export interface CheckerRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the checker on `request` (asynchronously: it may fetch tiles from this process). */
export function runChecker(binary: string, request: unknown): Promise<CheckerRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [], { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(JSON.stringify(request));
  });
}
