import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { nodeFlagsOf } from './node-flags.js';

describe('nodeFlagsOf', () => {
  it('reads the flags of the erx command, which npm start uses too', () => {
    const flags = nodeFlagsOf('src/cli/main.ts');
    assert.deepEqual(flags, ['--max-old-space-size=1024', '--max-semi-space-size=8']);
    const start = JSON.parse(readFileSync('package.json', 'utf8')).scripts.start as string;
    assert.equal(start, `node ${flags.join(' ')} dist/src/cli/main.js serve`);
  });

  it('answers no flags for plain node and refuses a file without a node #! line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'erx-flags-'));
    writeFileSync(join(dir, 'plain.js'), '#!/usr/bin/env node\nexport {};\n');
    writeFileSync(join(dir, 'none.js'), 'export {};\n');
    assert.deepEqual(nodeFlagsOf(join(dir, 'plain.js')), []);
    assert.throws(() => nodeFlagsOf(join(dir, 'none.js')), /node #! line/);
  });
});
