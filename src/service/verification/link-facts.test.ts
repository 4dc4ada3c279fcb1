import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeChmed } from '../../chmed16a/index.js';
import { buildLink, LinkKeyring } from '../../link/index.js';
import { VerificationMemory } from '../../memory/verification-memory.js';
import { readLinkFacts } from './link-facts.js';
import type { VerifyKeys } from './link-facts.js';
import { medicamentRefs } from '../rules/medicament-refs.js';
import { VerificationCache } from './verification-cache.js';

/** The facts of `link` through the cache, as verify reads them. */
function factsOf(cache: VerificationCache, link: string, keys: VerifyKeys) {
  keys.refresh();
  return cache.linkFacts(link, keys.generation, () => readLinkFacts(link, keys)).facts;
}

const root = mkdtempSync(join(tmpdir(), 'erx-link-facts-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
function ringDir(): string {
  return join(root, `ring-${++dirs}`);
}

const T0 = 1_700_000_000;
const BASE = 'http://localhost:8080/rx/';
const DOCUMENT = JSON.parse(
  readFileSync(new URL('../../../examples/prescription.json', import.meta.url), 'utf8'),
) as { Id: string; Medicaments: unknown[] };

function linkOf(keyring: LinkKeyring, issuedAt: number): string {
  return buildLink({
    prescriptionUrl: BASE,
    chmed: encodeChmed(DOCUMENT),
    issuer: 'Dr. Lukas Beispiel (HIN|lbeispiel)',
    issuedAt,
    keyring,
  });
}

/** A ring that counts the public-key lookups a signature check makes. */
function counting(ring: LinkKeyring): VerifyKeys & { lookups: number } {
  return {
    lookups: 0,
    get generation() {
      return ring.generation;
    },
    refresh: (force) => ring.refresh(force),
    keysCurrentAt(t) {
      this.lookups++;
      return ring.keysCurrentAt(t);
    },
  };
}

describe('link facts in the verification cache', () => {
  test('reads a link once: the second call answers the same facts without a signature check', () => {
    const ring = LinkKeyring.open(ringDir(), { now: T0 });
    const keys = counting(ring);
    const memo = new VerificationCache(new VerificationMemory());
    const link = linkOf(ring, T0 + 10);
    const first = factsOf(memo, link, keys);
    assert.equal(first.id, DOCUMENT.Id);
    assert.equal(first.schemaOk, true);
    assert.equal(first.signatureOk, true);
    assert.deepEqual(
      first.medicaments,
      medicamentRefs({ format: 'CHMED16A', doc: DOCUMENT as never }),
    );
    assert.equal(keys.lookups, 1);
    assert.equal(factsOf(memo, link, keys), first);
    assert.equal(keys.lookups, 1);
  });

  test('facts expire with the key generation: a key withdrawn since is no longer trusted', () => {
    const ring = LinkKeyring.open(ringDir(), { now: T0 });
    const link = linkOf(ring, T0 + 10);
    let generation = 0;
    let trusted = true;
    const keys: VerifyKeys = {
      get generation() {
        return generation;
      },
      refresh: () => false,
      keysCurrentAt: (t) => (trusted ? ring.keysCurrentAt(t) : []),
    };
    const memo = new VerificationCache(new VerificationMemory());
    assert.equal(factsOf(memo, link, keys).signatureOk, true);
    trusted = false;
    assert.equal(factsOf(memo, link, keys).signatureOk, true, 'same generation: remembered');
    generation++;
    assert.equal(factsOf(memo, link, keys).signatureOk, false);
  });

  test('a link signed with a key another instance made a moment ago verifies at once', async () => {
    const dir = ringDir();
    const service = LinkKeyring.open(dir, { now: T0, recheckMs: 60_000 });
    const other = LinkKeyring.open(dir);
    await other.rotate(T0 + 1_000);
    const link = linkOf(other, T0 + 1_000);
    const facts = factsOf(new VerificationCache(new VerificationMemory()), link, service);
    assert.equal(facts.signatureOk, true);
  });

  test('a link that does not parse is refused every time and never remembered', () => {
    const ring = LinkKeyring.open(ringDir(), { now: T0 });
    const memo = new VerificationCache(new VerificationMemory());
    for (let i = 0; i < 2; i++) assert.throws(() => factsOf(memo, `${BASE}#nonsense`, ring));
  });
});
