import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ErxError } from '../errors.js';
import { principalFromIntrospection, roleFromScope } from './principal-from-introspection.js';

const NOW = 1_723_814_000;
const SEED_ANSWER = {
  active: true,
  description: 'Pharmacy software',
  exp: NOW + 300,
  expires_in: 300,
  expires_on: '2024-08-16T13:18:20Z',
  name: 'Apotheke am Platz',
  client_id: 'pharma1',
  scope: 'pharmacist',
  sub: 'HIN|pharma1',
};

describe('roleFromScope', () => {
  const cases: [unknown, string | undefined][] = [
    ['prescriber', 'prescriber'],
    ['openid pharmacist profile', 'pharmacist'],
    ['pharmacist  pharmacist', 'pharmacist'],
    ['prescriber pharmacist', undefined],
    ['admin', undefined],
    ['Prescriber', undefined],
    ['', undefined],
    [undefined, undefined],
    [['prescriber'], undefined],
  ];
  for (const [scope, role] of cases) {
    it(`${JSON.stringify(scope)} ⇒ ${String(role)}`, () => {
      assert.equal(roleFromScope(scope), role);
    });
  }
});

describe('principalFromIntrospection', () => {
  it('reads a seed GetTokenInfo answer', () => {
    assert.deepEqual(principalFromIntrospection(SEED_ANSWER, NOW), {
      sub: 'HIN|pharma1',
      name: 'Apotheke am Platz',
      role: 'pharmacist',
      clientId: 'pharma1',
      expiresAt: NOW + 300,
    });
  });

  it('reads an RFC 7662 answer: username for the name, exp for the expiry', () => {
    const answer = {
      active: true,
      scope: 'prescriber',
      client_id: 'pis-7',
      username: 'Dr. Beat Beispiel',
      sub: 'HIN|doc7',
      exp: NOW + 45,
      token_type: 'Bearer',
    };
    assert.deepEqual(principalFromIntrospection(answer, NOW), {
      sub: 'HIN|doc7',
      name: 'Dr. Beat Beispiel',
      role: 'prescriber',
      clientId: 'pis-7',
      expiresAt: NOW + 45,
    });
  });

  it('prefers the relative expires_in over exp (no clock skew)', () => {
    const skewed = { ...SEED_ANSWER, exp: NOW - 20, expires_in: 100 };
    assert.equal(principalFromIntrospection(skewed, NOW)?.expiresAt, NOW + 100);
  });

  it('falls back to sub for a missing name and client_id', () => {
    const bare = { active: true, scope: 'pharmacist', sub: 'HIN|p2', exp: NOW + 10 };
    const principal = principalFromIntrospection(bare, NOW);
    assert.equal(principal?.name, 'HIN|p2');
    assert.equal(principal?.clientId, 'HIN|p2');
  });

  const inactive: Record<string, Record<string, unknown>> = {
    'active false': { active: false },
    'active false with fields': { ...SEED_ANSWER, active: false },
    'no role in scope': { ...SEED_ANSWER, scope: 'openid' },
    'both roles in scope': { ...SEED_ANSWER, scope: 'prescriber pharmacist' },
    'no scope': { ...SEED_ANSWER, scope: undefined },
    'no sub': { ...SEED_ANSWER, sub: undefined },
    'empty sub': { ...SEED_ANSWER, sub: '' },
    'sub with a control character': { ...SEED_ANSWER, sub: 'HIN|a\nb' },
    'no expiry': { ...SEED_ANSWER, exp: undefined, expires_in: undefined },
    'expiry as a string': { ...SEED_ANSWER, exp: String(NOW + 60), expires_in: '60' },
    'already expired': { ...SEED_ANSWER, exp: NOW, expires_in: undefined },
    'expires_in zero': { ...SEED_ANSWER, expires_in: 0 },
  };
  for (const [label, answer] of Object.entries(inactive)) {
    it(`treats ${label} as inactive`, () => {
      assert.equal(principalFromIntrospection(answer, NOW), undefined);
    });
  }

  const broken: Record<string, unknown> = {
    null: null,
    array: [SEED_ANSWER],
    string: 'active',
    'object without active': { ...SEED_ANSWER, active: undefined },
    'active as a string': { ...SEED_ANSWER, active: 'true' },
  };
  for (const [label, answer] of Object.entries(broken)) {
    it(`refuses ${label} as service_unavailable`, () => {
      assert.throws(
        () => principalFromIntrospection(answer, NOW),
        (error: unknown) => error instanceof ErxError && error.code === 'service_unavailable',
      );
    });
  }
});
