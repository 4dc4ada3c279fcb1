import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { buildLink } from './build.js';
import { formatIssuer } from './issuer.js';
import { MAX_LINK_LENGTH } from './limits.js';
import { LINK_ERROR_REASONS, LinkError } from './link-error.js';
import type { LinkErrorReason } from './link-error.js';
import { parseLink } from './parse.js';
import { reasonOf as refusalReason } from '../../test/support/refusals.js';
import { LINEAR_GROWTH, growth } from '../../test/support/timing.js';

const BASE = 'http://localhost:8080/rx/';
const SIGNATURE = 'ab'.repeat(64);
// parseLink checks the form only, so a fixed signer is enough to build links here.
const fixedSigner = { sign: () => Buffer.from(SIGNATURE, 'hex') };

function chmedOf(document: unknown): string {
  return `CHMED16A1${gzipSync(JSON.stringify(document)).toString('base64')}`;
}

const reasonOf = (action: () => unknown): LinkErrorReason => refusalReason(LinkError, action);

describe('parseLink', () => {
  test('a built link parses back to its parts', () => {
    const chmed = chmedOf({ Id: '3f1c5d1e-8b7a-4c62-9d3e-2a7b9c0d1e2f', MedType: 3 });
    const issuer = formatIssuer('Dr. Anna Meier', 'HIN|ameier');
    const link = buildLink({
      prescriptionUrl: BASE,
      chmed,
      issuer,
      issuedAt: 1723813932,
      keyring: fixedSigner,
    });
    const parsed = parseLink(link);
    assert.equal(parsed.baseUrl, BASE);
    assert.equal(parsed.chmed, chmed);
    assert.equal(parsed.issuer, 'Dr. Anna Meier (HIN|ameier)');
    assert.equal(parsed.issuedAt, 1723813932);
    assert.equal(parsed.signatureHex, SIGNATURE);
    assert.equal(parsed.signedPart, `${chmed}&i=Dr.%20Anna%20Meier%20(HIN%7Cameier)&t=1723813932`);
    assert.equal(parsed.fragment, `${parsed.signedPart}&s=${SIGNATURE}`);
    assert.equal(link, `${BASE}#${parsed.fragment}`);
  });

  test('%20 and + both decode to a space in i', () => {
    const chmed = chmedOf({ Id: 'x' });
    const withPercent = parseLink(`${BASE}#${chmed}&i=Anna%20Meier%20(a)&t=1&s=${SIGNATURE}`);
    const withPlus = parseLink(`${BASE}#${chmed}&i=Anna+Meier+(a)&t=1&s=${SIGNATURE}`);
    assert.equal(withPercent.issuer, 'Anna Meier (a)');
    assert.equal(withPlus.issuer, 'Anna Meier (a)');
    // The signed bytes stay as they stand in the link, so the two spellings sign differently.
    assert.notEqual(withPercent.signedPart, withPlus.signedPart);
  });

  test('any issuer label survives build and parse (property)', () => {
    const chmed = chmedOf({ Id: 'x' });
    const text = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 40 });
    fc.assert(
      fc.property(text, text, fc.integer({ min: 0, max: 9_999_999_999 }), (name, actor, t) => {
        fc.pre(name.trim() !== '' && actor.trim() !== '' && !/\p{Cc}/u.test(name + actor));
        const issuer = formatIssuer(name, actor);
        const link = buildLink({
          prescriptionUrl: BASE,
          chmed,
          issuer,
          issuedAt: t,
          keyring: fixedSigner,
        });
        const parsed = parseLink(link);
        assert.equal(parsed.issuer, `${name} (${actor})`);
        assert.equal(parsed.issuedAt, t);
      }),
      { numRuns: 1000 },
    );
  });

  test('a link longer than MAX_LINK_LENGTH is refused before any other check', () => {
    const chmed = `CHMED16A1${'A'.repeat(MAX_LINK_LENGTH)}`;
    assert.equal(
      reasonOf(() => parseLink(`${BASE}#${chmed}&i=a&t=1&s=${SIGNATURE}`)),
      'too_long',
    );
    assert.equal(
      reasonOf(() => parseLink(' '.repeat(MAX_LINK_LENGTH + 1))),
      'too_long',
    );
  });

  test('a link of exactly MAX_LINK_LENGTH parses', () => {
    const frame = `${BASE}#CHMED16A1&i=a&t=1&s=${SIGNATURE}`;
    const chmed = `CHMED16A1${'A'.repeat(MAX_LINK_LENGTH - frame.length)}`;
    const link = `${BASE}#${chmed}&i=a&t=1&s=${SIGNATURE}`;
    assert.equal(link.length, MAX_LINK_LENGTH);
    assert.equal(parseLink(link).chmed, chmed);
  });

  test('hostile inputs of maximal length are answered in linear time', () => {
    // Each hostile input of `length` characters: at the maximum it is refused for its reason, and
    // its cost grows no faster than linearly from a quarter of that length to all of it.
    const hostile: [(length: number) => string, LinkErrorReason][] = [
      [(n) => `http://a/${' '.repeat(n - 20)}x#`, 'bad_base_url'],
      [(n) => `a${' '.repeat(n / 2 - 100)}b${' '.repeat(n / 2 - 100)}`, 'no_fragment'],
      [(n) => `${BASE}#CHMED16A1x&i=${'%'.repeat(n - 200)}&t=1&s=${SIGNATURE}`, 'bad_issuer'],
      [
        (n) =>
          `${BASE}#CHMED16A1x&i=${'%41'.repeat(Math.floor((n - 5_000) / 3))}&t=1&s=${SIGNATURE}`,
        'bad_issuer',
      ],
      [(n) => `${BASE}#CHMED16A1x${'&'.repeat(n - 100)}`, 'bad_field_order'],
      [(n) => `${BASE}#CHMED16A1x&i=a&t=${'1'.repeat(n - 200)}&s=${SIGNATURE}`, 'bad_time'],
      [(n) => `${BASE}#CHMED16A1x&i=a&t=1&s=${'a'.repeat(n - 100)}`, 'bad_signature_format'],
      [(n) => `${'a:'.repeat(n / 2 - 100)}#`, 'bad_prefix'],
    ];
    for (const [build, reason] of hostile) {
      const link = build(MAX_LINK_LENGTH);
      assert.ok(link.length <= MAX_LINK_LENGTH);
      assert.equal(
        reasonOf(() => parseLink(link)),
        reason,
      );
      const quarter = build(MAX_LINK_LENGTH / 4);
      assert.equal(
        reasonOf(() => parseLink(quarter)),
        reason,
      );
      const grew = growth(
        (n) => reasonOf(() => parseLink(n === MAX_LINK_LENGTH ? link : quarter)),
        MAX_LINK_LENGTH / 4,
      );
      assert.ok(grew < LINEAR_GROWTH, `${reason}: 4 times the length cost ${grew} times as much`);
    }
  });

  test('every reason is a bad_request carrying the reason as its cause code', () => {
    for (const reason of LINK_ERROR_REASONS) {
      const error = new LinkError(reason);
      assert.equal(error.code, 'bad_request');
      assert.equal(error.causeCode, reason);
      assert.equal(error.reason, reason);
      assert.ok(error.message.length > 0);
    }
  });
});
