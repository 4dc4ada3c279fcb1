// Hostile input: random mutations of a valid link produce only a LinkError
// from parseLink or a boolean from verification; no other exception escapes.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { buildLink } from './build.js';
import { LinkKeyring } from './keyring.js';
import { LinkError } from './link-error.js';
import { parseLink } from './parse.js';
import { verifyLinkSignature } from './verify.js';

const root = mkdtempSync(join(tmpdir(), 'erx-link-mutation-'));
after(() => rmSync(root, { recursive: true, force: true }));

type Mutation =
  | { kind: 'replace' | 'insert'; at: number; char: string }
  | { kind: 'delete' | 'truncate'; at: number }
  | { kind: 'duplicate'; at: number; from: number; length: number };

const char = fc.oneof(
  fc.constantFrom(
    '%',
    '+',
    '&',
    '=',
    '#',
    ' ',
    '\n',
    '\r',
    '\t',
    '\u0000',
    'ü',
    '\ud800',
    '\udc00',
    '😀',
    'i',
    't',
    's',
  ),
  fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
  fc.constantFrom(...'0123456789abcdefABCDEF'),
);
const position = fc.nat({ max: 100_000 });
const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constantFrom('replace' as const, 'insert' as const), at: position, char }),
  fc.record({ kind: fc.constantFrom('delete' as const, 'truncate' as const), at: position }),
  fc.record({
    kind: fc.constant('duplicate' as const),
    at: position,
    from: position,
    length: fc.nat({ max: 200 }),
  }),
);

function apply(text: string, change: Mutation): string {
  const at = text.length === 0 ? 0 : change.at % (text.length + 1);
  switch (change.kind) {
    case 'replace':
      return text.slice(0, at) + change.char + text.slice(at + 1);
    case 'insert':
      return text.slice(0, at) + change.char + text.slice(at);
    case 'delete':
      return text.slice(0, at) + text.slice(at + 1);
    case 'truncate':
      return text.slice(0, at);
    case 'duplicate': {
      const from = change.from % (text.length + 1);
      return text.slice(0, at) + text.slice(from, from + change.length) + text.slice(at);
    }
  }
}

test('10,000 random mutations of a valid link give only LinkError or a boolean', () => {
  const ring = LinkKeyring.open(join(root, 'link-keys'), { now: 1_700_000_000 });
  const chmed = `CHMED16A1${gzipSync(JSON.stringify({ Id: 'a1', MedType: 3 })).toString('base64')}`;
  const valid = buildLink({
    prescriptionUrl: 'http://localhost:8080/rx/',
    chmed,
    issuer: 'Dr. Anna Meier (HIN|ameier)',
    issuedAt: 1_700_000_100,
    keyring: ring,
  });
  const original = parseLink(valid);
  const outcomes = { refused: 0, unverified: 0, verified: 0 };

  fc.assert(
    fc.property(fc.array(mutation, { minLength: 1, maxLength: 3 }), (changes) => {
      const mutated = changes.reduce(apply, valid);
      let parsed;
      try {
        parsed = parseLink(mutated);
      } catch (error) {
        assert.ok(error instanceof LinkError, `escaped: ${String(error)}`);
        outcomes.refused++;
        return;
      }
      const verified = verifyLinkSignature(parsed, ring);
      assert.equal(typeof verified, 'boolean');
      if (verified) {
        // Only the unsigned base address or trimmed whitespace may differ in a link that verifies.
        assert.equal(parsed.signedPart, original.signedPart);
        assert.equal(parsed.signatureHex, original.signatureHex);
        outcomes.verified++;
      } else {
        outcomes.unverified++;
      }
    }),
    { numRuns: 10_000 },
  );
  assert.equal(outcomes.refused + outcomes.unverified + outcomes.verified, 10_000);
  assert.ok(outcomes.refused > 0 && outcomes.unverified > 0, JSON.stringify(outcomes));
});
