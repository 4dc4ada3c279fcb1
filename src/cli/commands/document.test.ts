import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { CHMED_STRINGS, FOREIGN_LINKS } from '../../../test/support/foreign-links.js';
import {
  IG_PARTS,
  IG_PRESCRIPTION,
  IG_WHOLE,
  chmed23String,
  splitChmed23,
} from '../../../test/support/chmed23a-fixtures.js';
import { PartsError } from '../../chmed23a/index.js';
import { registerDocumentCommands } from './document.js';

/** Runs `erx decode <inputs…>` in this process; answers what it wrote to stdout and stderr. */
async function decode(...inputs: string[]): Promise<{ stdout: string; stderr: string }> {
  const program = new Command('erx').exitOverride();
  registerDocumentCommands(program);
  const out: string[] = [];
  const err: string[] = [];
  const { stdout, stderr } = process;
  const write = stdout.write.bind(stdout);
  const writeErr = stderr.write.bind(stderr);
  stdout.write = (chunk: string | Uint8Array) => out.push(String(chunk)) > 0;
  stderr.write = (chunk: string | Uint8Array) => err.push(String(chunk)) > 0;
  try {
    await program.parseAsync(['decode', ...inputs], { from: 'user' });
  } finally {
    stdout.write = write;
    stderr.write = writeErr;
  }
  return { stdout: out.join(''), stderr: err.join('') };
}

describe('erx decode: links and strings erx did not issue (SPEC.md §3)', () => {
  test('prints the document of every published link and names its issuing host on stderr', async () => {
    for (const fixture of FOREIGN_LINKS) {
      const { stdout, stderr } = await decode(fixture.link);
      const doc = JSON.parse(stdout) as { Id: string; Medicaments: unknown[] };
      assert.equal(doc.Id, fixture.id, fixture.name);
      assert.equal(doc.Medicaments.length, fixture.medicaments, fixture.name);
      assert.equal(
        stderr,
        `issued by ${fixture.host}, not by this service: not verifiable here\n`,
        fixture.name,
      );
    }
  });

  test('prints the document of every published string, from a file too (wrapped over lines)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erx-decode-'));
    for (const [index, fixture] of CHMED_STRINGS.entries()) {
      const file = join(dir, `${index}.txt`);
      writeFileSync(file, fixture.text);
      for (const input of [fixture.text, `@${file}`]) {
        const { stdout, stderr } = await decode(input);
        const doc = JSON.parse(stdout) as Record<string, unknown>;
        if (fixture.json !== null) assert.deepEqual(doc, fixture.json, fixture.name);
        if (fixture.id !== null) assert.equal(doc.Id, fixture.id, fixture.name);
        assert.equal(stderr, '');
      }
    }
  });
});

describe('erx decode: CHMED23A in one piece or in parts', () => {
  test('prints the IG example from its string and from its four parts in reverse order', async () => {
    const whole = await decode(IG_WHOLE);
    const parts = await decode(...[...IG_PARTS].reverse());
    assert.deepEqual(JSON.parse(parts.stdout), JSON.parse(whole.stdout));
    assert.equal(parts.stderr, '');
  });

  test('reads parts from files as well as arguments', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erx-decode-'));
    const [first, second, third] = splitChmed23(chmed23String(IG_PRESCRIPTION.json), 3);
    writeFileSync(join(dir, 'two.txt'), `${second}\n`);
    const { stdout } = await decode(third!, `@${join(dir, 'two.txt')}`, first!);
    assert.deepEqual(JSON.parse(stdout), IG_PRESCRIPTION.json);
  });

  test('names the missing part', async () => {
    await assert.rejects(decode(IG_PARTS[0]!, IG_PARTS[1]!, IG_PARTS[3]!), (error: unknown) => {
      assert.ok(error instanceof PartsError);
      assert.equal(error.message, 'Part 3 of 4 is missing.');
      return true;
    });
  });
});
