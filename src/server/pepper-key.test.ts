/** The pepper's source: ERX_PEPPER, or a key file of the data directory made once, 0600. */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { PEPPER_FILE, openPepper } from './pepper-key.js';

const root = mkdtempSync(join(tmpdir(), 'erx-pepper-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const dataDir = () => join(root, `d${++dirs}`);

/** What a pepper makes of one input, to compare peppers without reading them. */
const fingerprint = (config: { dataDir: string; pepper: string | undefined }) =>
  openPepper(config).mac('test', ['x']).toString('hex');

test('without ERX_PEPPER: a 32-byte key file made on first use (mode 0600), then the same', () => {
  const dir = dataDir();
  const first = fingerprint({ dataDir: dir, pepper: undefined });
  assert.equal(readFileSync(join(dir, PEPPER_FILE)).length, 32);
  assert.equal(statSync(join(dir, PEPPER_FILE)).mode & 0o777, 0o600);
  assert.equal(statSync(dir).mode & 0o777, 0o700, 'a data directory made for it is private');
  assert.equal(fingerprint({ dataDir: dir, pepper: undefined }), first);
  assert.notEqual(fingerprint({ dataDir: dataDir(), pepper: undefined }), first);
});

test('ERX_PEPPER wins over the file, and makes none', () => {
  const dir = dataDir();
  const pepper = 'an operator-given pepper of 32+ characters';
  const given = fingerprint({ dataDir: dir, pepper });
  assert.equal(given, fingerprint({ dataDir: dataDir(), pepper }));
  assert.throws(() => statSync(join(dir, PEPPER_FILE)), /ENOENT/);
  assert.notEqual(fingerprint({ dataDir: dir, pepper: undefined }), given);
});

test('a file that holds no key refuses the start instead of peppering with it', () => {
  const dir = dataDir();
  openPepper({ dataDir: dir, pepper: undefined });
  writeFileSync(join(dir, PEPPER_FILE), 'short');
  assert.throws(() => openPepper({ dataDir: dir, pepper: undefined }), /32-byte key/);
});
