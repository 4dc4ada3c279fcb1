import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createPublicKey } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { buildLink } from './build.js';
import { CLOCK_SKEW_SECONDS } from './key-window.js';
import { LinkKeyring } from './keyring.js';
import { LinkError } from './link-error.js';
import { parseLink } from './parse.js';
import { verifyLinkSignature } from './verify.js';
import type { LinkVerificationKeys } from './verify.js';

const root = mkdtempSync(join(tmpdir(), 'erx-link-verify-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
function freshRing(now: number): LinkKeyring {
  return LinkKeyring.open(join(root, `ring-${++dirs}`), { now });
}

const T0 = 1_700_000_000;
const BASE = 'http://localhost:8080/rx/';
const DOCUMENT = { Id: '3f1c5d1e-8b7a-4c62-9d3e-2a7b9c0d1e2f', MedType: 3, Rmk: 'Müller' };
const CHMED = `CHMED16A1${gzipSync(JSON.stringify(DOCUMENT)).toString('base64')}`;
const ISSUER = 'Dr. Anna Meier (HIN|ameier)';

function link(keyring: LinkKeyring, issuedAt: number): string {
  return buildLink({ prescriptionUrl: BASE, chmed: CHMED, issuer: ISSUER, issuedAt, keyring });
}

// Signs whatever `t` says, bypassing buildLink's refusal of a time before the current key.
function linkSignedAnyway(keyring: LinkKeyring, issuedAt: number): string {
  const signedPart = `${CHMED}&i=${encodeURIComponent(ISSUER)}&t=${issuedAt}`;
  const signature = keyring.sign(Buffer.from(signedPart, 'utf8')).toString('hex');
  return `${BASE}#${signedPart}&s=${signature}`;
}

function verifies(text: string, keys: LinkVerificationKeys): boolean {
  return verifyLinkSignature(parseLink(text), keys);
}

// Trusts exactly one public key, whatever the time.
function only(pem: string): LinkVerificationKeys {
  const key = createPublicKey(pem);
  return { keysCurrentAt: () => [key] };
}

describe('verifyLinkSignature', () => {
  test('a signed link verifies', () => {
    const ring = freshRing(T0);
    assert.equal(verifies(link(ring, T0 + 10), ring), true);
  });

  test('after rotate, old links still verify and new links are signed with the new key', async () => {
    const ring = freshRing(T0);
    const old = link(ring, T0 + 10);
    await ring.rotate(T0 + 1000);
    const fresh = link(ring, T0 + 2000);
    assert.equal(verifies(old, ring), true);
    assert.equal(verifies(fresh, ring), true);

    const [oldKey, newKey] = ring.publicKeys();
    assert.ok(oldKey && newKey);
    assert.equal(newKey.current, true);
    assert.equal(verifies(fresh, only(newKey.pem)), true);
    assert.equal(verifies(fresh, only(oldKey.pem)), false);
    assert.equal(verifies(old, only(oldKey.pem)), true);
  });

  test('a link signed with a key not in the ring does not verify', () => {
    const ring = freshRing(T0);
    const stranger = freshRing(T0);
    const foreign = link(stranger, T0 + 10);
    assert.equal(verifies(foreign, stranger), true);
    assert.equal(verifies(foreign, ring), false);
  });

  test('a link whose t lies before a key existed is not verified by that key', () => {
    const ring = freshRing(T0);
    assert.equal(verifies(linkSignedAnyway(ring, T0 - CLOCK_SKEW_SECONDS - 1), ring), false);
    assert.equal(verifies(linkSignedAnyway(ring, 0), ring), false);
    // The clock-skew allowance, and not a second more.
    assert.equal(verifies(linkSignedAnyway(ring, T0 - CLOCK_SKEW_SECONDS), ring), true);
  });

  test('a new key does not vouch for a time inside its predecessor window', async () => {
    const ring = freshRing(T0);
    await ring.rotate(T0 + 1000);
    // Signed by the new key, dated while the old key was current.
    assert.equal(verifies(linkSignedAnyway(ring, T0 + 10), ring), false);
  });

  test('a retired key does not vouch for a time after its retirement', async () => {
    const ring = freshRing(T0);
    const retiredAt = T0 + 1000;
    // Signed in advance by the key that is about to be retired.
    const lastSecond = linkSignedAnyway(ring, retiredAt + CLOCK_SKEW_SECONDS);
    const tooLate = linkSignedAnyway(ring, retiredAt + CLOCK_SKEW_SECONDS + 1);
    assert.equal(verifies(tooLate, ring), true);
    await ring.rotate(retiredAt);
    assert.equal(verifies(lastSecond, ring), true);
    assert.equal(verifies(tooLate, ring), false);
  });

  test('a parsed link assembled by hand with a t other than the signed one does not verify', () => {
    const ring = freshRing(T0);
    const parsed = parseLink(link(ring, T0 + 10));
    assert.equal(verifyLinkSignature({ ...parsed, issuedAt: T0 + 11 }, ring), false);
    assert.equal(
      verifyLinkSignature({ ...parsed, signatureHex: parsed.signatureHex.toUpperCase() }, ring),
      false,
    );
  });

  test('changing any single character of data, i, t or s never verifies (property)', () => {
    const ring = freshRing(T0);
    const valid = link(ring, T0 + 10);
    const fragmentStart = valid.indexOf('#') + 1;
    const special = [
      '%',
      '+',
      '&',
      '=',
      '#',
      ' ',
      '\n',
      '0',
      'a',
      'A',
      'f',
      'F',
      'ü',
      '\ud800',
      '😀',
    ];
    const replacement = fc.oneof(
      fc.constantFrom(...special),
      fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)),
    );
    let refused = 0;
    let unverified = 0;
    fc.assert(
      fc.property(
        fc.integer({ min: fragmentStart, max: valid.length - 1 }),
        replacement,
        (at, char) => {
          fc.pre(valid[at] !== char);
          const mutated = valid.slice(0, at) + char + valid.slice(at + 1);
          let parsed;
          try {
            parsed = parseLink(mutated);
          } catch (error) {
            assert.ok(error instanceof LinkError, `not a LinkError: ${String(error)}`);
            refused++;
            return;
          }
          assert.equal(verifyLinkSignature(parsed, ring), false, `verified: ${mutated}`);
          unverified++;
        },
      ),
      { numRuns: 2000 },
    );
    // Both outcomes occur, so the property was exercised on each path.
    assert.ok(refused > 0 && unverified > 0);
  });
});
