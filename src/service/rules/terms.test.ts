/** The terms of a prescription: quantities, expiry, and the signature over the row's copies. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, test } from 'node:test';
import { LinkKeyring } from '../../link/index.js';
import type { LinkVerificationKeys } from '../../link/index.js';
import type { PrescriptionRow } from '../../store/types.js';
import { LruCache } from '../../lru-cache.js';
import { TermsVerifier, expiryOf, prescribedPackages, signTerms } from './terms.js';

const DAY = 86_400_000;
const dir = mkdtempSync(join(tmpdir(), 'erx-terms-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const ring = LinkKeyring.open(join(dir, 'link-keys'), { now: 1_600_000_000 });

function signedRow(): PrescriptionRow {
  const copies = {
    id: '0190d3a0-0000-7000-8000-000000000001',
    issuer: 'Dr. A (HIN|dr)',
    issuerActor: 'HIN|dr',
    issuedAt: 1_700_000_000,
    medicaments: [{ Id: '7680543201015', IdType: 2, NbPack: 2, Rep: 1, Subs: 1 }],
  };
  return { ...copies, headHash: 'h', terms: signTerms(ring, copies, 1_800_000_000_000) };
}

describe('terms', () => {
  test('packages prescribed: NbPack × (1 + Rep), 1 and 0 when absent', () => {
    assert.equal(prescribedPackages({}), 1);
    assert.equal(prescribedPackages({ NbPack: 2, Rep: 1 }), 4);
    assert.equal(prescribedPackages({ Rep: 24 }), 25);
    assert.equal(prescribedPackages({ NbPack: -3 }), -3);
  });

  test('packages prescribed stay within ±(2^53 − 1), where 1e308 × 2 would be ±Infinity', () => {
    assert.equal(prescribedPackages({ NbPack: 1e308, Rep: 1 }), Number.MAX_SAFE_INTEGER);
    assert.equal(prescribedPackages({ NbPack: -1e308, Rep: 1 }), -Number.MAX_SAFE_INTEGER);
    assert.equal(prescribedPackages({ NbPack: 2 ** 60 }), Number.MAX_SAFE_INTEGER);
    assert.equal(prescribedPackages({ NbPack: 2 ** 52, Rep: 0 }), 2 ** 52);
  });

  test('expiry: Dt plus the longer of the validity and the largest Rep in calendar months', () => {
    const dt = '2025-01-31T10:00:00+01:00';
    const start = Date.parse(dt);
    assert.equal(expiryOf(dt, 365 * DAY, [{ Rep: 3 }]), start + 365 * DAY);
    // 31 January + 1 month is the last day of February; + 13 months, the last of February 2026.
    assert.equal(expiryOf(dt, 1_000, [{ Rep: 1 }]), Date.parse('2025-02-28T09:00:00Z'));
    assert.equal(expiryOf(dt, 1_000, [{}, { Rep: 13 }]), Date.parse('2026-02-28T09:00:00Z'));
    assert.equal(expiryOf('not a time', 1_000, []), undefined);
  });

  test('a verified signature is remembered; edited copies miss the memo and fail', () => {
    let lookups = 0;
    const counting: LinkVerificationKeys = {
      keysCurrentAt: (t) => {
        lookups++;
        return ring.keysCurrentAt(t);
      },
    };
    const verifier = new TermsVerifier(counting, new LruCache(10));
    const row = signedRow();
    assert.equal(verifier.holds(row, row.terms!), true);
    assert.equal(verifier.holds(row, row.terms!), true);
    assert.equal(lookups, 1, 'the second check is a lookup');
    const more = { ...row, medicaments: [{ ...row.medicaments[0]!, NbPack: 20 }] };
    assert.equal(verifier.holds(more, row.terms!), false);
    const later = { ...row.terms!, expiresAt: row.terms!.expiresAt + DAY };
    assert.equal(verifier.holds(row, later), false);
    const noSubs = { ...row, medicaments: [{ Id: '7680543201015', IdType: 2, NbPack: 2, Rep: 1 }] };
    assert.equal(verifier.holds(noSubs, row.terms!), false);
    assert.equal(verifier.holds(row, { ...row.terms!, signature: 'zz' }), false);
  });

  test('CHMED23A packages: a count adds redemptions, a duration adds none, no reps is one more', () => {
    assert.equal(prescribedPackages({ NbPack: 2, Reps: { t: 1, v: 0 } }), 2);
    assert.equal(prescribedPackages({ NbPack: 2, Reps: { t: 1, v: 2 } }), 6);
    assert.equal(prescribedPackages({ NbPack: 2, Reps: { t: 2, d: 6, u: 6 } }), 2);
    assert.equal(prescribedPackages({ Reps: { t: 3, v: 3, d: 6, u: 6 } }), 4);
  });

  test('CHMED23A validity: the longer of the configured one and the longest duration of reps', () => {
    const dt = '2024-02-08T10:01:23+01:00';
    const start = Date.parse(dt);
    const year = 365 * DAY;
    // A count alone never extends it (unlike CHMED16A's Rep, read as months).
    assert.equal(expiryOf(dt, year, [{ Reps: { t: 1, v: 24 } }]), start + year);
    assert.equal(expiryOf(dt, year, [{ Reps: { t: 2, d: 6, u: 6 } }]), start + year);
    assert.equal(
      expiryOf(dt, year, [{ Reps: { t: 3, v: 1, d: 18, u: 6 } }]),
      Date.parse('2025-08-08T09:01:23Z'),
    );
    assert.equal(
      expiryOf(dt, year, [{ Reps: { t: 2, d: 2, u: 7 } }]),
      Date.parse('2026-02-08T09:01:23Z'),
    );
    assert.equal(expiryOf(dt, 0, [{ Reps: { t: 2, d: 10, u: 4 } }]), start + 10 * DAY);
    // A duration past a century is held at a century: still a date.
    const far = expiryOf(dt, 0, [{ Reps: { t: 2, d: Number.MAX_SAFE_INTEGER, u: 1 } }]);
    assert.ok(Number.isFinite(far) && far! > start);
  });
});
