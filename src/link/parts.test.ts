import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { IG_WHOLE } from '../../test/support/chmed23a-fixtures.js';
import { PartsError } from '../chmed23a/index.js';
import { buildLink } from './build.js';
import { parseLink } from './parse.js';
import { joinPartLinks, partLinksToFit, splitIntoPartLinks } from './parts.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const keyring = { sign: (data: Uint8Array) => sign(null, data, privateKey) };

function linkOf(chmed: string, issuedAt = 1723813932): string {
  return buildLink({
    prescriptionUrl: 'https://erx.example.ch/rx/',
    chmed,
    issuer: 'Dr. Anna Meier (HIN|ameier)',
    issuedAt,
    keyring,
  });
}

const WHOLE = linkOf(IG_WHOLE);

function partsError(action: () => unknown): PartsError {
  try {
    action();
  } catch (error) {
    if (error instanceof PartsError) return error;
    throw error;
  }
  assert.fail('no PartsError');
}

describe('part links: one signed CHMED23A link over several QR codes', () => {
  test('each part is a link in erx form with the whole link’s issuer, time and signature', () => {
    const parts = splitIntoPartLinks(WHOLE, 3);
    const whole = parseLink(WHOLE);
    assert.equal(parts.length, 3);
    parts.forEach((part, i) => {
      const parsed = parseLink(part);
      assert.ok(parsed.chmed.startsWith(`CHMED23A.${i + 1}/3.`));
      assert.equal(parsed.signatureHex, whole.signatureHex);
      assert.equal(parsed.baseUrl, whole.baseUrl);
      assert.equal(parsed.issuedAt, whole.issuedAt);
    });
  });

  test('joined in any order, the parts give back the link whose signature verifies', () => {
    const parts = splitIntoPartLinks(WHOLE, 4);
    for (const order of [
      [0, 1, 2, 3],
      [3, 2, 1, 0],
      [2, 0, 3, 1],
    ]) {
      const joined = joinPartLinks(order.map((i) => parts[i]!));
      assert.equal(joined, WHOLE);
    }
    const { signedPart, signatureHex } = parseLink(joinPartLinks([...parts].reverse()));
    const signature = Buffer.from(signatureHex, 'hex');
    assert.equal(verify(null, Buffer.from(signedPart), publicKey, signature), true);
  });

  test('a link in one piece is itself; one part alone names the others as missing', () => {
    assert.equal(joinPartLinks([WHOLE]), WHOLE);
    assert.equal(joinPartLinks(['not a link']), 'not a link');
    const parts = splitIntoPartLinks(WHOLE, 3);
    const alone = partsError(() => joinPartLinks([parts[1]!]));
    assert.equal(alone.reason, 'missing_parts');
    assert.deepEqual(alone.params, { missing: [1, 3], total: 3 });
  });

  test('names missing and repeated parts, and refuses parts of two links', () => {
    const parts = splitIntoPartLinks(WHOLE, 3);
    const missing = partsError(() => joinPartLinks([parts[2]!, parts[0]!]));
    assert.equal(missing.message, 'Part 2 of 3 is missing.');
    const twice = partsError(() => joinPartLinks([parts[2]!, parts[0]!, parts[2]!]));
    assert.equal(twice.reason, 'duplicate_part');
    assert.deepEqual(twice.params, { index: 3, total: 3 });
    const other = splitIntoPartLinks(linkOf(IG_WHOLE, 1723813999), 3);
    const mixed = partsError(() => joinPartLinks([parts[0]!, other[1]!, parts[2]!]));
    assert.equal(mixed.reason, 'different_links');
    assert.equal(partsError(() => joinPartLinks([parts[0]!, WHOLE])).reason, 'mixed_parts');
  });

  test('splits into as few parts as fit, and into none when nothing fits', () => {
    const length = (limit: number) => (text: string) => text.length <= limit;
    assert.deepEqual(partLinksToFit(WHOLE, length(WHOLE.length)), [WHOLE]);
    // What a link holds besides the document's data, and a part's header (`.k/n`, n < 10).
    const around = WHOLE.length - (IG_WHOLE.length - 'CHMED23A.'.length) + '.1/3'.length;
    const limit = around + 80;
    const parts = partLinksToFit(WHOLE, length(limit))!;
    assert.ok(parts.length > 1 && parts.every((p) => p.length <= limit));
    assert.ok(splitIntoPartLinks(WHOLE, parts.length - 1).some((p) => p.length > limit));
    assert.equal(partLinksToFit(WHOLE, length(around)), undefined);
    assert.throws(() => splitIntoPartLinks(parts[0]!, 2), RangeError);
  });
});
