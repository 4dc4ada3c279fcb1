import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { LinkKeyring } from './keyring.js';
import { KeyringError } from './keyring-error.js';
import { LOADER, modulePath } from '../../test/support/modules.js';
import { LOCK_FILE, withRingLock } from './ring-lock.js';

const root = mkdtempSync(join(tmpdir(), 'erx-ring-lock-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
function freshDir(): string {
  const dir = join(root, `dir-${++dirs}`);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
}

describe('withRingLock', () => {
  test('waits while another holder has the lock, then runs', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, LOCK_FILE), 'held');
    const release = setTimeout(() => rmSync(join(dir, LOCK_FILE)), 100);
    const started = Date.now();
    const result = await withRingLock(dir, () => 'ran', { timeoutMs: 2_000 });
    clearTimeout(release);
    assert.equal(result, 'ran');
    assert.ok(Date.now() - started >= 90);
    assert.equal(existsSync(join(dir, LOCK_FILE)), false);
  });

  test('gives up with busy (503) when the lock stays held', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, LOCK_FILE), 'held');
    let ran = false;
    await assert.rejects(
      withRingLock(dir, () => (ran = true), { timeoutMs: 100 }),
      (error: unknown) =>
        error instanceof KeyringError &&
        error.reason === 'busy' &&
        error.code === 'service_unavailable',
    );
    assert.equal(ran, false);
  });

  test('breaks a lock left behind by a crashed process', async () => {
    const dir = freshDir();
    const lock = join(dir, LOCK_FILE);
    writeFileSync(lock, 'crashed');
    const longAgo = new Date(Date.now() - 60_000);
    utimesSync(lock, longAgo, longAgo);
    assert.equal(
      await withRingLock(dir, () => 'ran', { timeoutMs: 1_000, staleMs: 30_000 }),
      'ran',
    );
  });

  test('releases the lock when the action throws', async () => {
    const dir = freshDir();
    await assert.rejects(
      withRingLock(dir, () => {
        throw new RangeError('boom');
      }),
      RangeError,
    );
    assert.equal(existsSync(join(dir, LOCK_FILE)), false);
  });
});

describe('rotation across processes', () => {
  test('four processes rotating at once lose no key', async () => {
    const dir = join(root, 'shared', 'link-keys');
    LinkKeyring.open(dir);
    const module = pathToFileURL(modulePath('src/link/keyring.ts')).href;
    const script = [
      `import { LinkKeyring } from ${JSON.stringify(module)};`,
      'const ring = LinkKeyring.open(process.argv[1]);',
      'const kids = [];',
      'for (let i = 0; i < 5; i++) kids.push((await ring.rotate()).kid);',
      'console.log(JSON.stringify(kids));',
    ].join('\n');
    const run = promisify(execFile);
    const outputs = await Promise.all(
      [1, 2, 3, 4].map(() =>
        run(process.execPath, [...LOADER, '--input-type=module', '-e', script, dir]),
      ),
    );
    const created = outputs.flatMap(({ stdout }) => JSON.parse(stdout) as string[]);
    assert.equal(created.length, 20);
    const kids = LinkKeyring.open(dir)
      .list()
      .map((key) => key.kid);
    assert.equal(kids.length, 21);
    for (const kid of created) assert.ok(kids.includes(kid), `rotation ${kid} was lost`);
  });
});
