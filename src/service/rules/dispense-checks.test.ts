/**
 * Each rule of a dispensation on its own (SPEC.md §5, §10), then the walk of the list: which
 * refusal comes first, and what force overrides.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { OTHER_PHARMACIST, PHARMACIST } from '../../../test/support/service.js';
import type { ChainFacts, MedicamentState } from './chain-state.js';
import {
  DISPENSE_CHECKS,
  checkDispense,
  completion,
  isClosingStep,
  lock,
  medicaments,
  quantity,
  revocation,
  substitution,
  validity,
} from './dispense-checks.js';
import type { DispenseAsk } from './dispense-checks.js';

const A: MedicamentState = { id: 'A', prescribed: 2, dispensed: 0, substitutionAllowed: true };
const B: MedicamentState = { id: 'B', prescribed: 1, dispensed: 0, substitutionAllowed: false };

function facts(change: Partial<ChainFacts> = {}): ChainFacts {
  return {
    revoked: false,
    dispensed: false,
    completion: undefined,
    medicaments: [A, B],
    expiresAt: Date.parse('2030-01-01T00:00:00Z'),
    expired: false,
    lock: undefined,
    cancelled: new Set(),
    named: new Set(),
    fullDispensed: false,
    byId: new Map(),
    ...change,
  };
}

/** Completed by partial dispensations: every medicament reached, no full dispensation. */
const completedByPartials = facts({
  dispensed: true,
  completion: { at: '2026-01-01T00:00:00Z', by: 'Apotheke' },
  medicaments: [
    { ...A, dispensed: 2 },
    { ...B, dispensed: 1 },
  ],
});
const completedByFull = facts({ ...completedByPartials, fullDispensed: true });

const full: DispenseAsk = { items: undefined, force: false, principal: PHARMACIST };
const items = (...list: DispenseAsk['items'] & object): DispenseAsk => ({ ...full, items: list });

describe('the rules of a dispensation', () => {
  it('revocation refuses a revoked prescription (403 revoked), force or not', () => {
    assert.equal(revocation(facts(), full), undefined);
    const refused = revocation(facts({ revoked: true }), { ...full, force: true });
    assert.equal(refused?.error.causeCode, 'revoked');
    assert.equal(refused?.overridable, undefined);
  });

  it('lock refuses when another holds the lock (423), not the holder', () => {
    const held = { actor: OTHER_PHARMACIST.sub, actorName: 'Other', at: 'x', expiresAt: Infinity };
    assert.equal(lock(facts({ lock: held }), full)?.error.code, 'locked');
    const mine = { ...held, actor: PHARMACIST.sub };
    assert.equal(lock(facts({ lock: mine }), full), undefined);
  });

  it('completion refuses a dispensed prescription with the seed 403, overridable', () => {
    assert.equal(completion(facts(), full), undefined);
    const refused = completion(completedByFull, full);
    assert.equal(refused?.error.code, 'forbidden');
    assert.equal(refused?.error.causeCode, 'unknown_error');
    assert.equal(refused?.overridable, 'already_dispensed');
    assert.ok(completion(completedByPartials, items({ id: 'A', amount: 1 })));
  });

  it("HIN's closing step: one full dispensation without force after partials completed it", () => {
    assert.equal(isClosingStep(completedByPartials, full), true);
    assert.equal(completion(completedByPartials, full), undefined);
    assert.equal(isClosingStep(completedByFull, full), false, 'a full dispensation stands');
    assert.equal(isClosingStep(facts(), full), false, 'not dispensed yet');
    assert.equal(isClosingStep(completedByPartials, { ...full, force: true }), false);
    assert.equal(isClosingStep(completedByPartials, items({ id: 'A', amount: 1 })), false);
  });

  it('validity refuses an expired prescription (403 expired), overridable', () => {
    assert.equal(validity(facts(), full), undefined);
    const refused = validity(facts({ expired: true }), full);
    assert.equal(refused?.error.causeCode, 'expired');
    assert.equal(refused?.overridable, 'expired');
  });

  it('medicaments refuses items naming no medicament (400), never overridable', () => {
    assert.equal(medicaments(facts(), full), undefined);
    assert.equal(medicaments(facts(), items({ id: 'A', amount: 1 })), undefined);
    const refused = medicaments(facts(), items({ id: 'A', amount: 1 }, { id: 'Z', amount: 1 }));
    assert.equal(refused?.error.code, 'bad_request');
    assert.equal(refused?.error.violations?.[0]?.path, '/1/id');
    assert.equal(refused?.overridable, undefined);
  });

  it('substitution refuses a substitute for Subs 1, overridable; allows it elsewhere', () => {
    const sub = { substitute: '7680000000097', substitute_id_type: 2 };
    assert.equal(substitution(facts(), items({ id: 'A', amount: 1, ...sub })), undefined);
    const refused = substitution(facts(), items({ id: 'B', amount: 1, ...sub }));
    assert.equal(refused?.error.causeCode, 'substitution_not_allowed');
    assert.equal(refused?.overridable, 'substitution_not_allowed');
  });

  it('quantity refuses more packages than remain, summed per medicament, overridable', () => {
    assert.equal(quantity(facts(), full), undefined, 'a full dispensation takes what remains');
    assert.equal(quantity(facts(), items({ id: 'A', amount: 2 })), undefined);
    const refused = quantity(facts(), items({ id: 'A', amount: 1 }, { id: 'A', amount: 2 }));
    assert.equal(refused?.error.causeCode, 'quantity_exceeded');
    assert.deepEqual(refused?.error.params, {
      medicament: 'A',
      amount: 3,
      remaining: 2,
      prescribed: 2,
    });
    assert.equal(refused?.overridable, 'quantity_exceeded');
  });

  it('walks the list in the documented order', () => {
    assert.deepEqual(
      DISPENSE_CHECKS.map(([name]) => name),
      ['revocation', 'lock', 'completion', 'validity', 'medicaments', 'substitution', 'quantity'],
    );
  });

  it('answers the first refusal force may not override, and notes what force overrode', () => {
    const expired = facts({ ...completedByFull, expired: true });
    const first = checkDispense(expired, full);
    assert.equal(first.ok, false);
    assert.equal(!first.ok && first.error.causeCode, 'unknown_error');
    const forced = checkDispense(expired, { ...items({ id: 'A', amount: 5 }), force: true });
    assert.deepEqual(forced.ok && [...forced.overridden].sort(), [
      'already_dispensed',
      'expired',
      'quantity_exceeded',
    ]);
    const unknown = checkDispense(expired, { ...items({ id: 'Z', amount: 1 }), force: true });
    assert.equal(!unknown.ok && unknown.error.causeCode, 'unknown_medicament');
    assert.deepEqual(checkDispense(completedByPartials, full), { ok: true, overridden: new Set() });
  });
});
