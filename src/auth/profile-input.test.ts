import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Violation } from '../errors.js';
import { gs1CheckDigitOk } from '../catalog/gtin.js';
import { checkProfileInput, isEmptyProfileInput, normaliseZsr } from './profile-input.js';
import type { ProfileInput } from './profile-input.js';
import { profileFromText, profileText } from './prescriber-profile.js';
import type { PrescriberProfile } from './prescriber-profile.js';

const GLN = '7601000000002';

const FULL: ProfileInput = {
  firstName: ' Anna ',
  lastName: 'Muster',
  gln: GLN,
  zsr: 'a1234.56',
  practiceName: 'Praxis am See',
  street: 'Seestrasse 1',
  zip: '8000',
  city: 'Zürich',
  phone: '+41 44 000 00 00',
};

function check(input: ProfileInput, base?: PrescriberProfile) {
  const out: Violation[] = [];
  const profile = checkProfileInput(input, base, '/profile', out);
  return { profile, paths: out.map((v) => `${v.path} ${v.code}`) };
}

describe('prescriber profile input', () => {
  it('normalises a ZSR number written with or without the dot, and refuses other shapes', () => {
    assert.equal(normaliseZsr('A1234.56'), 'A123456');
    assert.equal(normaliseZsr('a123456'), 'A123456');
    assert.equal(normaliseZsr(' Z9876.54 '), 'Z987654');
    for (const bad of ['', 'A12345', '1234567', 'AB23456', 'A12.3456', 'A1234567', 'A1234..56']) {
      assert.equal(normaliseZsr(bad), undefined, bad);
    }
  });

  it('takes a whole profile, trimmed, the ZSR normalised', () => {
    const { profile, paths } = check(FULL);
    assert.deepEqual(paths, []);
    assert.deepEqual(profile, {
      first_name: 'Anna',
      last_name: 'Muster',
      gln: GLN,
      zsr: 'A123456',
      practice: {
        name: 'Praxis am See',
        street: 'Seestrasse 1',
        zip: '8000',
        city: 'Zürich',
        phone: '+41 44 000 00 00',
      },
    });
  });

  it('names every violation at once: GLN shape and check digit, ZSR, a partial practice', () => {
    const wrongDigit = `${GLN.slice(0, 12)}${(Number(GLN[12]) + 1) % 10}`;
    assert.equal(gs1CheckDigitOk(wrongDigit), false);
    assert.deepEqual(check({ ...FULL, gln: wrongDigit }).paths, ['/profile/gln invalid']);
    assert.deepEqual(check({ firstName: 'A', gln: '12345', zsr: 'A12', zip: '80' }).paths, [
      '/profile/lastName required',
      '/profile/gln gln_digits',
      '/profile/zsr pattern',
      '/profile/practice/name required',
      '/profile/practice/street required',
      '/profile/practice/zip zip_digits',
      '/profile/practice/city required',
    ]);
  });

  it('updates the fields given over a stored profile; an empty one removes a field', () => {
    const base = check(FULL).profile;
    const { profile, paths } = check({ gln: '7601234567890', phone: '', zsr: '' }, base);
    assert.deepEqual(paths, []);
    assert.equal(profile?.gln, '7601234567890');
    assert.equal(profile?.zsr, undefined);
    assert.equal(profile?.practice?.phone, undefined);
    assert.equal(profile?.practice?.city, 'Zürich');
    const noPractice = check({ practiceName: '', street: '', zip: '', city: '', phone: '' }, base);
    assert.deepEqual(noPractice.paths, []);
    assert.equal(noPractice.profile?.practice, undefined);
    assert.equal(check({ firstName: '' }, base).paths[0], '/profile/firstName required');
  });

  it('tells an empty input apart', () => {
    assert.equal(isEmptyProfileInput({}), true);
    assert.equal(isEmptyProfileInput({ phone: '' }), false);
  });

  it('reads back what it stores, and nothing from text that is not a profile', () => {
    const profile = check(FULL).profile;
    assert.ok(profile);
    assert.deepEqual(profileFromText(profileText(profile)), profile);
    for (const bad of [undefined, '', 'null', '[]', '{"gln":1}', '{"first_name":"A"}', '{']) {
      assert.equal(profileFromText(bad), undefined, String(bad));
    }
  });

  it('reads a profile stored before the one shape, its names in camel case, as the one shape', () => {
    const older = '{"firstName":"Anna","lastName":"Muster","gln":"7601000000002","zsr":"A123456"}';
    assert.deepEqual(profileFromText(older), {
      first_name: 'Anna',
      last_name: 'Muster',
      gln: '7601000000002',
      zsr: 'A123456',
    });
  });
});
