/** The seal key file: made once, whole and private; read back the same. */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { SEAL_KEY_FILE, openSealKey } from './seal-key.js';

const root = mkdtempSync(join(tmpdir(), 'erx-seal-key-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const dataDir = () => mkdtempSync(join(root, `d${++dirs}-`));

test('made on first use with mode 0600, then read back the same, no temporary file left', () => {
  const dir = dataDir();
  const key = openSealKey(dir);
  assert.equal(key.length, 32);
  assert.equal(statSync(join(dir, SEAL_KEY_FILE)).mode & 0o777, 0o600);
  assert.deepEqual(openSealKey(dir), key);
  assert.deepEqual(readdirSync(dir), [SEAL_KEY_FILE]);
});

test('a file that holds no key refuses the start instead of sealing with it', () => {
  const dir = dataDir();
  writeFileSync(join(dir, SEAL_KEY_FILE), '');
  assert.throws(() => openSealKey(dir), /32-byte key/);
});
