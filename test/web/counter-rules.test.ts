/**
 * The counter's reading of a verify answer (web/src/counter/counter-state.ts), without a browser:
 * the headline for each state, most serious first; what is refused and why; the rules a
 * dispensation would override, in the service's order; and the rule a refusal names.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { LedgerEvent, VerifyResult } from '../../web/src/api/types.js';
import { counterState, itemOverrides, refusedRule } from '../../web/src/counter/counter-state.js';
import { cancelledEventIds } from '../../web/src/counter/dispensed-amounts.js';

const ME = 'HIN|pharma1';
const OTHER = 'HIN|pharma2';

function answer(change: Partial<VerifyResult> = {}): VerifyResult {
  return {
    prescription_id: 'a1b2',
    issued_at: '2026-11-27T10:00:00+01:00',
    issued_by: 'Dr. Beispiel (HIN|doctor1)',
    valid: true,
    revoked: false,
    dispensed: false,
    locked: false,
    expired: false,
    expires_at: '2027-11-27T09:00:00.000000000Z',
    medicaments: [
      { id: 'A', prescribed: 1, dispensed: 0, remaining: 1, substitution_allowed: true },
      { id: 'B', prescribed: 8, dispensed: 0, remaining: 8, substitution_allowed: false },
    ],
    partial_dispensations: [],
    events: [],
    tampering_detection_result: {
      prescription_url_valid: true,
      prescription_hash_check_passed: true,
      logs_check_passed: true,
    },
    ...change,
  } as VerifyResult;
}

function lockedBy(actor: string, name: string): Partial<VerifyResult> {
  return {
    locked: true,
    locked_by: name,
    events: [
      {
        id: 'e1',
        type: 'lock',
        reference: 'a1b2',
        event_data: { expires_at: '2026-11-27T13:05:00.000000000Z' },
        timestamp: '2026-11-27T12:50:00.000000000Z',
        actor,
        actor_name: name,
        cancellable: false,
      },
    ],
  };
}

describe('counter state', () => {
  test('the headline names the most serious state', () => {
    const cases: [Partial<VerifyResult>, string][] = [
      [{}, 'open'],
      [{ revoked: true, dispensed: true, expired: true }, 'revoked'],
      [{ valid: false, expired: true }, 'invalid'],
      [{ expired: true, dispensed: true }, 'expired'],
      [{ dispensed: true, ...lockedBy(OTHER, 'Bahnhof Apotheke') }, 'dispensed'],
      [lockedBy(OTHER, 'Bahnhof Apotheke'), 'lockedByOther'],
      [lockedBy(ME, 'Apotheke am Platz'), 'lockedByMe'],
    ];
    for (const [change, headline] of cases) {
      assert.equal(counterState(answer(change), ME).headline, headline, JSON.stringify(change));
    }
  });

  test('a revoked prescription refuses dispense, lock and cancel', () => {
    const state = counterState(answer({ revoked: true }), ME);
    assert.equal(state.dispenseRefused, 'counter.why.revoked');
    assert.equal(state.lockRefused, 'counter.why.revoked');
    assert.equal(state.cancelRefused, 'counter.why.revoked');
    assert.equal(state.mayUnlock, false);
  });

  test("another pharmacy's lock: its name and end, no unlock, dispense refused", () => {
    const state = counterState(answer(lockedBy(OTHER, 'Bahnhof Apotheke')), ME);
    assert.deepEqual(state.lock, {
      holder: 'Bahnhof Apotheke',
      actor: OTHER,
      until: '2026-11-27T13:05:00.000000000Z',
      mine: false,
    });
    assert.equal(state.mayUnlock, false);
    assert.equal(state.dispenseRefused, 'counter.why.lockedByOther');
    const mine = counterState(answer(lockedBy(ME, 'Apotheke am Platz')), ME);
    assert.equal(mine.mayUnlock, true);
    assert.equal(mine.dispenseRefused, undefined);
  });

  test('an unlock after the lock leaves no lock to show', () => {
    const locked = lockedBy(OTHER, 'Bahnhof Apotheke');
    const unlock = { ...locked.events![0]!, id: 'e2', type: 'unlock' as const, event_data: {} };
    const state = counterState(answer({ events: [locked.events![0]!, unlock] }), ME);
    assert.equal(state.lock, undefined);
  });

  test('the rules a dispensation overrides, in the order the service records them', () => {
    assert.deepEqual(itemOverrides(answer(), [{ id: 'A', amount: 1 }]), []);
    assert.deepEqual(
      itemOverrides(answer({ expired: true }), [
        { id: 'B', amount: 1, substitute: '7680999999999' },
        { id: 'A', amount: 1 },
        { id: 'A', amount: 1 },
      ]),
      ['quantity_exceeded', 'substitution_not_allowed', 'expired'],
    );
    assert.deepEqual(itemOverrides(answer({ dispensed: true }), undefined), ['already_dispensed']);
    const state = counterState(answer({ dispensed: true, medicaments: [] }), ME);
    assert.deepEqual(state.stateOverrides, ['already_dispensed']);
  });

  test('every combination of failed checks refuses dispense, lock, unlock and cancel, one sentence per failed check', () => {
    const fields = [
      ['prescription_url_valid', 'signature'],
      ['prescription_hash_check_passed', 'content'],
      ['logs_check_passed', 'history'],
    ] as const;
    for (let mask = 1; mask < 8; mask++) {
      const checks = Object.fromEntries(
        fields.map(([field], i) => [field, (mask & (1 << i)) === 0]),
      );
      const failed = fields.filter((_, i) => (mask & (1 << i)) !== 0).map(([, name]) => name);
      // Held by me, with packages left: everything would be offered were the checks passed.
      for (const valid of [false, true]) {
        const state = counterState(
          answer({
            ...lockedBy(ME, 'Apotheke am Platz'),
            valid,
            tampering_detection_result: checks as never,
          }),
          ME,
        );
        const label = `${failed.join('+')}, valid ${valid}`;
        assert.deepEqual(state.failures, failed, label);
        assert.equal(state.headline, 'invalid', label);
        assert.equal(state.trusted, false, label);
        assert.equal(state.dispenseRefused, 'counter.why.invalid', label);
        assert.equal(state.lockRefused, 'counter.why.invalid', label);
        assert.equal(state.cancelRefused, 'counter.why.invalid', label);
        assert.equal(state.mayUnlock, false, label);
      }
    }
    const passed = counterState(answer(lockedBy(ME, 'Apotheke am Platz')), ME);
    assert.deepEqual(passed.failures, []);
    assert.equal(passed.trusted, true);
    assert.equal(passed.dispenseRefused, undefined);
    assert.equal(passed.mayUnlock, true);
    // Not valid although every check passed (a document off the schema): its link is not trusted.
    assert.deepEqual(counterState(answer({ valid: false }), ME).failures, ['signature']);
  });

  test('a short answer (a forged link, SPEC.md §10) offers nothing; not valid, its signature failed', () => {
    const short = {
      prescription_id: 'a1b2',
      issued_at: '2026-11-27T10:00:00+01:00',
      issued_by: 'Dr. Beispiel (HIN|doctor1)',
      revoked: false,
      dispensed: false,
    };
    for (const valid of [false, true]) {
      const state = counterState({ ...short, valid }, ME);
      assert.equal(state.short, true);
      assert.equal(state.trusted, false);
      assert.deepEqual(state.failures, valid ? [] : ['signature']);
      assert.equal(state.headline, valid ? 'open' : 'invalid');
      const why = valid ? 'counter.why.short' : 'counter.why.invalid';
      assert.equal(state.dispenseRefused, why);
      assert.equal(state.lockRefused, why);
      assert.equal(state.cancelRefused, why);
      assert.equal(state.mayUnlock, false);
    }
  });

  test('no lock is offered on a fully dispensed prescription', () => {
    const all = answer({
      dispensed: true,
      medicaments: [
        { id: 'A', prescribed: 1, dispensed: 1, remaining: 0, substitution_allowed: true },
      ],
    });
    assert.equal(counterState(all, ME).lockRefused, 'counter.why.nothingRemains');
    assert.equal(counterState(all, ME).cancelRefused, undefined);
  });

  describe("HIN's closing step (SPEC.md §5)", () => {
    const at = '2026-11-27T10:00:00.000000000Z';
    const event = (id: string, type: LedgerEvent['type'], target?: string): LedgerEvent => ({
      id,
      type,
      reference: 'a1b2',
      event_data: target === undefined ? {} : { EventId: target },
      timestamp: at,
      actor: ME,
      actor_name: 'Apotheke am Platz',
      cancellable: true,
    });
    const covered = (events: LedgerEvent[], change: Partial<VerifyResult> = {}) =>
      answer({
        dispensed: true,
        medicaments: [
          { id: 'A', prescribed: 1, dispensed: 1, remaining: 0, substitution_allowed: true },
          { id: 'B', prescribed: 8, dispensed: 8, remaining: 0, substitution_allowed: false },
        ],
        events,
        ...change,
      });

    test('is what remains once partials covered every medicament and no full dispensation stands', () => {
      const partials = [event('p1', 'partial_dispense'), event('p2', 'partial_dispense')];
      assert.equal(counterState(covered(partials), ME).closable, true);
    });

    test('is not offered while packs remain, after a standing full dispensation, or when refused', () => {
      const partials = [event('p1', 'partial_dispense')];
      assert.equal(counterState(answer({ events: partials }), ME).closable, false);
      const closed = [...partials, event('f', 'full_dispense')];
      assert.equal(counterState(covered(closed), ME).closable, false);
      assert.equal(counterState(covered(partials, { expired: true }), ME).closable, false);
      assert.equal(counterState(covered(partials, { revoked: true }), ME).closable, false);
      assert.equal(counterState(covered(partials, { valid: false }), ME).closable, false);
      const byOther = lockedBy(OTHER, 'Bahnhof Apotheke');
      const locked = covered([...byOther.events!, ...partials], {
        locked: true,
        locked_by: 'Bahnhof Apotheke',
      });
      assert.equal(counterState(locked, ME).closable, false);
    });

    test('is offered again once the full dispensation that closed it is cancelled, not after undoing that', () => {
      const cancelledFull = [
        event('p1', 'partial_dispense'),
        event('f', 'full_dispense'),
        event('c1', 'cancel', 'f'),
      ];
      assert.equal(counterState(covered(cancelledFull), ME).closable, true);
      const restored = [...cancelledFull, event('c2', 'cancel', 'c1')];
      assert.equal(counterState(covered(restored), ME).closable, false);
    });
  });

  test('a refusal names the rule force overrides; other refusals name none', () => {
    assert.equal(refusedRule(403, 'unknown_error'), 'already_dispensed');
    assert.equal(refusedRule(403, 'quantity_exceeded'), 'quantity_exceeded');
    assert.equal(refusedRule(403, 'substitution_not_allowed'), 'substitution_not_allowed');
    assert.equal(refusedRule(403, 'expired'), 'expired');
    assert.equal(refusedRule(403, 'revoked'), undefined);
    assert.equal(refusedRule(423, undefined), undefined);
  });
});

describe('cancelled events on the timeline', () => {
  const at = '2026-11-27T10:00:00.000000000Z';
  const made = (id: string, type: string, target?: string) => ({
    id,
    type,
    reference: 'a1b2',
    event_data: target === undefined ? {} : { EventId: target },
    timestamp: at,
    actor: ME,
    actor_name: 'Apotheke',
    cancellable: true,
  });

  test('a cancelled cancel restores what it undid; cancelling it again undoes it anew', () => {
    const events = [made('d', 'partial_dispense'), made('c1', 'cancel', 'd')];
    const cancelled = (more: ReturnType<typeof made>[]) => [
      ...cancelledEventIds(answer({ events: [...events, ...more] } as Partial<VerifyResult>)),
    ];
    assert.deepEqual(cancelled([]), ['d']);
    assert.deepEqual(cancelled([made('c2', 'cancel', 'c1')]), ['c1']);
    assert.deepEqual(cancelled([made('c2', 'cancel', 'c1'), made('c3', 'cancel', 'c2')]).sort(), [
      'c2',
      'd',
    ]);
  });
});
