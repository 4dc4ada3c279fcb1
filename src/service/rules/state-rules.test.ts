/**
 * The rules of state: every cell of the table, first as the rule alone, then through the service
 * itself over a store in memory (no HTTP), where each state is reached by real calls.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isErxError } from '../../errors.js';
import {
  DOCTOR,
  OTHER_PHARMACIST,
  PHARMACIST,
  as,
  createSample,
  withService,
} from '../../../test/support/service.js';
import type { ChainFacts } from './chain-state.js';
import type { PrescriptionService } from '../prescription-service.js';
import { STATE_RULES, refuseByState } from './state-rules.js';
import type { Aspect, Operation, Outcome, StateCondition } from './state-rules.js';

/** The error code and `cause.Code` each outcome answers (undefined: the call goes on). */
const EXPECTED = {
  allow: undefined,
  refuse_revoked: ['forbidden', 'revoked'],
  conflict_already_revoked: ['conflict', 'already_revoked'],
  refuse_locked: ['locked', 'locked'],
  conflict_already_locked: ['conflict', 'already_locked'],
  conflict_not_locked: ['conflict', 'not_locked'],
  refuse_dispensed_unless_forced: ['forbidden', 'unknown_error'],
  refuse_expired_unless_forced: ['forbidden', 'expired'],
} as const satisfies Record<Outcome, readonly [string, string | undefined] | undefined>;

const ASPECT_OF = {
  revoked: 'revocation',
  unlocked: 'lock',
  locked_by_caller: 'lock',
  locked_by_other: 'lock',
  dispensed: 'completion',
  expired: 'validity',
} as const satisfies Record<StateCondition, Aspect>;

const LOCK = { actor: 'x', actorName: 'X', at: '2026-01-01T00:00:00Z', expiresAt: Infinity };

function factsIn(condition: StateCondition): ChainFacts {
  const none = { revoked: false, dispensed: false, lock: undefined, expired: false };
  const state = {
    revoked: { ...none, revoked: true },
    unlocked: none,
    locked_by_caller: { ...none, lock: { ...LOCK, actor: PHARMACIST.sub } },
    locked_by_other: { ...none, lock: { ...LOCK, actor: OTHER_PHARMACIST.sub } },
    dispensed: { ...none, dispensed: true },
    expired: { ...none, expired: true },
  }[condition];
  return {
    ...state,
    completion: undefined,
    medicaments: [],
    expiresAt: 0,
    cancelled: new Set(),
    named: new Set(),
    fullDispensed: false,
    byId: new Map(),
  };
}

/** What force overrides (SPEC.md §10); every other refusal stands. */
const FORCIBLE: ReadonlySet<Outcome> = new Set([
  'refuse_dispensed_unless_forced',
  'refuse_expired_unless_forced',
]);

function codesOf(call: () => unknown): readonly [string, string | undefined] | undefined {
  try {
    call();
    return undefined;
  } catch (error) {
    assert.ok(isErxError(error), String(error));
    return [error.code, error.causeCode];
  }
}

describe('the table of the rules of state', () => {
  for (const [operation, row] of Object.entries(STATE_RULES)) {
    for (const [condition, outcome] of Object.entries(row)) {
      test(`${operation} when ${condition}: ${outcome}`, () => {
        const c = condition as StateCondition;
        const refuse = (force: boolean) => () =>
          refuseByState(operation as Operation, ASPECT_OF[c], factsIn(c), PHARMACIST, force);
        assert.deepEqual(codesOf(refuse(false)), EXPECTED[outcome]);
        const forced = FORCIBLE.has(outcome) ? undefined : EXPECTED[outcome];
        assert.deepEqual(codesOf(refuse(true)), forced);
      });
    }
  }
});

/** The error code and `cause.Code` of an awaited call (undefined when it succeeded). */
async function outcomeOf(
  call: Promise<unknown>,
): Promise<readonly [string, string | undefined] | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    assert.ok(isErxError(error), String(error));
    return [error.code, error.causeCode];
  }
}

const NOT_FORCED = { force: false } as const;
const YEAR_MS = 366 * 86_400_000;

/** A clock the tests move: the services below read the time from it. */
const clock = { now: Date.now() };
/** The options of a service on {@link clock}. */
const AT_CLOCK = { now: () => clock.now };

/** Brings a new prescription into `condition` as seen by {@link PHARMACIST}. */
async function prescriptionIn(service: PrescriptionService, condition: StateCondition) {
  clock.now = Date.now();
  const rx = await createSample(service);
  // An event of the pharmacist's own to cancel.
  const own = await service.dispense(rx.id, undefined, NOT_FORCED, as(PHARMACIST));
  await service.cancel(rx.id, own.id, as(PHARMACIST));
  const partial = await service.dispense(
    rx.id,
    [{ id: '7680543201015', amount: 1 }],
    NOT_FORCED,
    as(PHARMACIST),
  );
  switch (condition) {
    case 'revoked':
      await service.revoke(rx.id, as(DOCTOR));
      break;
    case 'locked_by_caller':
      await service.lock(rx.id, undefined, as(PHARMACIST));
      break;
    case 'locked_by_other':
      await service.lock(rx.id, undefined, as(OTHER_PHARMACIST));
      break;
    case 'dispensed':
      await service.dispense(rx.id, undefined, NOT_FORCED, as(PHARMACIST));
      break;
    case 'expired':
      clock.now += 2 * YEAR_MS;
      break;
    case 'unlocked':
      break;
  }
  return { ...rx, partial: partial.id };
}

describe('the service applies the table (no socket)', () => {
  // Callers for whom no rule but the state's decides: the pharmacist, the issuer for revoke.
  const calls: Record<
    Exclude<Operation, 'unlock'>,
    (s: PrescriptionService, rx: { id: string; partial: string }) => Promise<unknown>
  > = {
    dispense: (s, rx) => s.dispense(rx.id, undefined, NOT_FORCED, as(PHARMACIST)),
    revoke: (s, rx) => s.revoke(rx.id, as(DOCTOR)),
    cancel: (s, rx) => s.cancel(rx.id, rx.partial, as(PHARMACIST)),
    lock: (s, rx) => s.lock(rx.id, undefined, as(PHARMACIST)),
  };
  for (const [operation, call] of Object.entries(calls)) {
    for (const [condition, outcome] of Object.entries(STATE_RULES[operation as Operation])) {
      // The issuer does not hold locks: revoke sees "locked by caller" never.
      if (operation === 'revoke' && condition === 'locked_by_caller') continue;
      test(`${operation} when ${condition}: ${outcome}`, () =>
        withService(AT_CLOCK, async ({ parts, service }) => {
          const rx = await prescriptionIn(service, condition as StateCondition);
          const events = ((await parts.store.readChain(rx.id))?.state.events ?? []).length;
          const got = await outcomeOf(call(service, rx));
          assert.deepEqual(got, EXPECTED[outcome]);
          // A refused call appends nothing; an accepted one exactly one event.
          const added = ((await parts.store.readChain(rx.id))?.state.events ?? []).length - events;
          assert.equal(added, got === undefined ? 1 : 0);
        }));
    }
  }

  test('unlock: by the holder when locked by the caller, and 409 when not locked', () =>
    withService(AT_CLOCK, async ({ service }) => {
      const locked = await prescriptionIn(service, 'locked_by_caller');
      assert.equal(
        await outcomeOf(service.unlock(locked.id, undefined, as(PHARMACIST))),
        undefined,
      );
      const open = await prescriptionIn(service, 'unlocked');
      assert.deepEqual(
        await outcomeOf(service.unlock(open.id, undefined, as(PHARMACIST))),
        EXPECTED[STATE_RULES.unlock.unlocked],
      );
      const revoked = await prescriptionIn(service, 'revoked');
      assert.deepEqual(
        await outcomeOf(service.unlock(revoked.id, undefined, as(PHARMACIST))),
        EXPECTED[STATE_RULES.unlock.revoked],
      );
    }));
});
