import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateKeyPairSync, sign, verify } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { buildLink } from './build.js';
import type { BuildLinkInput } from './build.js';
import { formatIssuer } from './issuer.js';
import { MAX_ISSUER_LENGTH, MAX_LINK_LENGTH } from './limits.js';
import { LinkError } from './link-error.js';
import type { LinkErrorReason } from './link-error.js';
import { parseLink } from './parse.js';
import { reasonOf as refusalReason } from '../../test/support/refusals.js';

const { privateKey, publicKey } = generateKeyPairSync('ed25519');
const signer = { sign: (data: Uint8Array) => sign(null, data, privateKey) };

const valid: BuildLinkInput = {
  prescriptionUrl: 'https://erx.example.ch/rx/',
  chmed: `CHMED16A1${gzipSync(JSON.stringify({ Id: 'x', MedType: 3 })).toString('base64')}`,
  issuer: 'Dr. Anna Meier (HIN|ameier)',
  issuedAt: 1723813932,
  keyring: signer,
};

const reasonOf = (action: () => unknown): LinkErrorReason => refusalReason(LinkError, action);

describe('buildLink', () => {
  test('signs the fragment up to &s= as it stands, in lowercase hex', () => {
    const link = buildLink(valid);
    const { signedPart, signatureHex } = parseLink(link);
    assert.match(signatureHex, /^[0-9a-f]{128}$/);
    assert.equal(link.indexOf('&s='), link.length - 128 - 3);
    assert.ok(link.startsWith(`${valid.prescriptionUrl}#${signedPart}&s=`));
    const signature = Buffer.from(signatureHex, 'hex');
    assert.equal(verify(null, Buffer.from(signedPart, 'utf8'), publicKey, signature), true);
  });

  test('writes spaces in i as %20 (encodeURIComponent)', () => {
    const link = buildLink(valid);
    assert.ok(link.includes('&i=Dr.%20Anna%20Meier%20(HIN%7Cameier)&t=1723813932&s='));
  });

  test('refuses inputs that would not parse, each with its reason', () => {
    const cases: [Partial<BuildLinkInput>, LinkErrorReason][] = [
      [{ prescriptionUrl: '' }, 'bad_base_url'],
      [{ prescriptionUrl: ' https://erx.example.ch/rx/' }, 'bad_base_url'],
      [{ prescriptionUrl: 'erx.example.ch/rx/' }, 'bad_base_url'],
      [{ prescriptionUrl: 'https://erx.example.ch/rx/#top' }, 'bad_fragment'],
      [{ chmed: '{"Id":"x"}' }, 'bad_prefix'],
      [{ chmed: 'CHMED16A1' }, 'bad_data'],
      [{ chmed: 'CHMED16A1abc&x=1' }, 'bad_field_order'],
      [{ chmed: `CHMED16A1${'A'.repeat(MAX_LINK_LENGTH)}` }, 'too_long'],
      [{ issuer: '' }, 'bad_issuer'],
      [{ issuer: 'Anna\nMeier (a)' }, 'bad_issuer'],
      [{ issuer: 'Anna \ud800 (a)' }, 'bad_issuer'],
      [{ issuer: 'x'.repeat(MAX_ISSUER_LENGTH + 1) }, 'bad_issuer'],
      [{ issuedAt: -1 }, 'bad_time'],
      [{ issuedAt: 1.5 }, 'bad_time'],
      [{ issuedAt: Number.NaN }, 'bad_time'],
      [{ issuedAt: 10_000_000_000 }, 'bad_time'],
    ];
    for (const [change, reason] of cases) {
      assert.equal(
        reasonOf(() => buildLink({ ...valid, ...change })),
        reason,
        JSON.stringify(change),
      );
    }
  });

  test('signs nothing it refuses', () => {
    let signed = 0;
    const counting = { sign: (data: Uint8Array) => (signed++, sign(null, data, privateKey)) };
    reasonOf(() => buildLink({ ...valid, chmed: 'nope', keyring: counting }));
    assert.equal(signed, 0);
  });

  test('an issuer label of MAX_ISSUER_LENGTH is accepted', () => {
    const issuer = 'x'.repeat(MAX_ISSUER_LENGTH);
    assert.equal(parseLink(buildLink({ ...valid, issuer })).issuer, issuer);
  });
});

describe('formatIssuer', () => {
  test('joins display name and actor id as "<name> (<actor id>)"', () => {
    assert.equal(formatIssuer('Dr. Anna Meier', 'HIN|ameier'), 'Dr. Anna Meier (HIN|ameier)');
  });

  test('refuses an empty name or actor id and control characters', () => {
    assert.equal(
      reasonOf(() => formatIssuer('', 'HIN|ameier')),
      'bad_issuer',
    );
    assert.equal(
      reasonOf(() => formatIssuer('Anna', '  ')),
      'bad_issuer',
    );
    assert.equal(
      reasonOf(() => formatIssuer('Anna\u0000', 'a')),
      'bad_issuer',
    );
  });
});
