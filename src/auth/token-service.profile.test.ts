import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import {
  AS_PRACTICE,
  isError,
  PHARMACY,
  PRACTICE,
  tokenServiceFixture,
} from '../../test/support/token-service.js';
import type { TokenServiceFixture } from '../../test/support/token-service.js';
import { profileFromText } from './prescriber-profile.js';
import type { ProfileInput } from './profile-input.js';

const PROFILE: ProfileInput = {
  firstName: 'Anna',
  lastName: 'Muster',
  gln: '7601000000002',
  zsr: 'A1234.56',
  practiceName: 'Praxis am See',
  street: 'Seestrasse 1',
  zip: '8000',
  city: 'Zürich',
};

describe('TokenService: prescriber profiles', () => {
  let fx: TokenServiceFixture;

  beforeEach(() => {
    fx = tokenServiceFixture();
  });

  it('registers a prescriber with a profile, stored normalised and listed', async () => {
    const added = await fx.service.addClient({ ...PRACTICE, profile: PROFILE });
    assert.equal(added.client.profile?.zsr, 'A123456');
    assert.deepEqual(profileFromText((await fx.store.clients.get('doc1'))?.profile), {
      first_name: 'Anna',
      last_name: 'Muster',
      gln: '7601000000002',
      zsr: 'A123456',
      practice: { name: 'Praxis am See', street: 'Seestrasse 1', zip: '8000', city: 'Zürich' },
    });
    const listed = (await fx.service.listClients()).find((c) => c.clientId === 'doc1');
    assert.deepEqual(listed?.profile, added.client.profile);
    assert.deepEqual(await fx.service.clientProfile('doc1'), added.client.profile);
  });

  it('refuses a profile for a pharmacist, and a registration with a bad profile, storing nothing', async () => {
    await assert.rejects(
      fx.service.addClient({ ...PHARMACY, profile: PROFILE }),
      (e: unknown) =>
        isError('bad_request')(e) &&
        (e as { violations?: { path: string; code: string }[] }).violations?.[0]?.code ===
          'not_allowed',
    );
    await assert.rejects(
      fx.service.addClient({ ...PRACTICE, profile: { ...PROFILE, gln: '7601000000001' } }),
      isError('bad_request'),
    );
    assert.deepEqual(await fx.service.listClients(), []);
  });

  it('sets, updates and clears a profile without touching the secret', async () => {
    await fx.addClientsWithToken();
    const hash = (await fx.store.clients.get('doc1'))?.secretHash;
    const set = await fx.service.setClientProfile('doc1', PROFILE);
    assert.equal(set.profile?.gln, '7601000000002');
    const updated = await fx.service.setClientProfile('doc1', {
      gln: '7601234567890',
      phone: '044',
    });
    assert.equal(updated.profile?.gln, '7601234567890');
    assert.equal(updated.profile?.practice?.phone, '044');
    assert.equal(updated.profile?.first_name, 'Anna');
    assert.equal((await fx.store.clients.get('doc1'))?.secretHash, hash);
    // The secret still authenticates: the profile is not part of the hash's binding.
    assert.ok((await fx.tokenOf(PRACTICE, AS_PRACTICE.clientSecret)).length > 0);
    const cleared = await fx.service.setClientProfile('doc1', null);
    assert.equal('profile' in cleared, false);
    assert.equal(await fx.service.clientProfile('doc1'), undefined);
    assert.ok((await fx.tokenOf(PRACTICE, AS_PRACTICE.clientSecret)).length > 0);
  });

  it('refuses a pharmacist, an unknown client and a bad update, keeping the stored profile', async () => {
    await fx.addClientsWithToken();
    await assert.rejects(
      fx.service.setClientProfile('pharma1', PROFILE),
      isError('bad_request', 'not_a_prescriber'),
    );
    await assert.rejects(fx.service.setClientProfile('nobody', PROFILE), isError('not_found'));
    await fx.service.setClientProfile('doc1', PROFILE);
    await assert.rejects(
      fx.service.setClientProfile('doc1', { zsr: '12', zip: 'x' }),
      (e: unknown) =>
        isError('bad_request')(e) &&
        JSON.stringify(
          (e as { violations?: { path: string }[] }).violations?.map((v) => v.path),
        ) === '["/profile/zsr","/profile/practice/zip"]',
    );
    assert.equal((await fx.service.clientProfile('doc1'))?.zsr, 'A123456');
    assert.equal(await fx.service.clientProfile('pharma1'), undefined);
  });
});
