/**
 * The rules of state (SPEC.md §5 "Rules of state") as one table: for each operation on an existing
 * prescription and each state of its chain, the outcome. The operations apply it through
 * {@link refuseByState}; a test walks every cell. A new operation or state is a compile error until
 * its row or column is filled in.
 */
import type { Principal } from '../../auth/index.js';
import { ErxError } from '../../errors.js';
import type { OverrideCode } from '../../ledger/index.js';
import type { ChainFacts } from './chain-state.js';

/** The calls that append to an existing chain. */
export type Operation = 'dispense' | 'revoke' | 'cancel' | 'lock' | 'unlock';

/** The states a rule looks at; each operation asks about one aspect at a time. */
export type StateCondition =
  'revoked' | 'unlocked' | 'locked_by_caller' | 'locked_by_other' | 'dispensed' | 'expired';

/** The aspects of the state, each a set of conditions at most one of which holds. */
export type Aspect = 'revocation' | 'lock' | 'completion' | 'validity';

/** What a state means for an operation: go on, or the one refusal it answers. */
export type Outcome =
  | 'allow'
  /** 403 `revoked`. */
  | 'refuse_revoked'
  /** 409 `already_revoked`. */
  | 'conflict_already_revoked'
  /** 423, naming the holder. */
  | 'refuse_locked'
  /** 409 `already_locked`, naming the holder. */
  | 'conflict_already_locked'
  /** 409 `not_locked`. */
  | 'conflict_not_locked'
  /** 403 exactly as seed §7, unless `force=true`. */
  | 'refuse_dispensed_unless_forced'
  /** 403 `expired` (SPEC.md §10), unless `force=true`. */
  | 'refuse_expired_unless_forced';

/** The table (SPEC.md §5). */
export const STATE_RULES = {
  dispense: {
    revoked: 'refuse_revoked',
    unlocked: 'allow',
    locked_by_caller: 'allow',
    locked_by_other: 'refuse_locked',
    dispensed: 'refuse_dispensed_unless_forced',
    expired: 'refuse_expired_unless_forced',
  },
  revoke: {
    revoked: 'conflict_already_revoked',
    unlocked: 'allow',
    locked_by_caller: 'allow',
    // The prescriber's safety action wins over a pharmacy's lock (SPEC.md §5, §10).
    locked_by_other: 'allow',
    dispensed: 'allow',
    // An expired prescription can still be revoked, undone, or held while the pharmacist decides.
    expired: 'allow',
  },
  cancel: {
    revoked: 'refuse_revoked',
    unlocked: 'allow',
    locked_by_caller: 'allow',
    locked_by_other: 'refuse_locked',
    dispensed: 'allow',
    expired: 'allow',
  },
  lock: {
    revoked: 'refuse_revoked',
    unlocked: 'allow',
    locked_by_caller: 'conflict_already_locked',
    locked_by_other: 'conflict_already_locked',
    dispensed: 'allow',
    expired: 'allow',
  },
  unlock: {
    revoked: 'refuse_revoked',
    unlocked: 'conflict_not_locked',
    locked_by_caller: 'allow',
    locked_by_other: 'allow',
    dispensed: 'allow',
    expired: 'allow',
  },
} as const satisfies Record<Operation, Record<StateCondition, Outcome>>;

/** The condition that holds now for `principal` in one aspect of the state, if any. */
export function conditionOf(
  aspect: Aspect,
  facts: ChainFacts,
  principal: Principal,
): StateCondition | undefined {
  switch (aspect) {
    case 'revocation':
      return facts.revoked ? 'revoked' : undefined;
    case 'lock':
      if (facts.lock === undefined) return 'unlocked';
      return facts.lock.actor === principal.sub ? 'locked_by_caller' : 'locked_by_other';
    case 'completion':
      return facts.dispensed ? 'dispensed' : undefined;
    case 'validity':
      return facts.expired ? 'expired' : undefined;
    default:
      return unreachable(aspect);
  }
}

function unreachable(value: never): never {
  throw new Error(`unhandled state aspect ${String(value)}`);
}

/** Seed §7: the exact refusal of a dispense on a fully dispensed prescription without force. */
export function alreadyDispensed(): ErxError {
  return new ErxError('forbidden', 'The prescription has already been fully dispensed.', {
    causeCode: 'unknown_error',
  });
}

/** The refusal of a dispense after the prescription's `expires_at` (SPEC.md §10). */
export function expired(facts: Pick<ChainFacts, 'expiresAt'>): ErxError {
  const at = new Date(facts.expiresAt).toISOString();
  return new ErxError('forbidden', `The prescription expired at ${at}.`, {
    causeCode: 'expired',
    params: { expires_at: at },
  });
}

/** The error an outcome answers, or undefined when the call may go on. */
function refusal(outcome: Outcome, facts: ChainFacts): ErxError | undefined {
  const holder = facts.lock && (facts.lock.actorName || facts.lock.actor);
  const lockParams = facts.lock && { holder: holder ?? '', since: facts.lock.at };
  switch (outcome) {
    case 'allow':
      return undefined;
    case 'refuse_revoked':
      return new ErxError('forbidden', 'The prescription has been revoked.', {
        causeCode: 'revoked',
      });
    case 'conflict_already_revoked':
      return new ErxError('conflict', 'The prescription is revoked already.', {
        causeCode: 'already_revoked',
      });
    case 'refuse_locked':
      // The holder is named so the pharmacy at the counter knows whom to call.
      return new ErxError(
        'locked',
        `The prescription is locked by ${holder} since ${facts.lock?.at}.`,
        lockParams && { params: lockParams },
      );
    case 'conflict_already_locked':
      return new ErxError('conflict', `The prescription is locked already by ${holder}.`, {
        causeCode: 'already_locked',
        ...(lockParams && { params: lockParams }),
      });
    case 'conflict_not_locked':
      return new ErxError('conflict', 'The prescription is not locked.', {
        causeCode: 'not_locked',
      });
    case 'refuse_dispensed_unless_forced':
      return alreadyDispensed();
    case 'refuse_expired_unless_forced':
      return expired(facts);
    default:
      return unreachable(outcome);
  }
}

/** What `force=true` overrides of the outcomes (SPEC.md §10), by outcome. */
const FORCIBLE: Partial<Record<Outcome, OverrideCode>> = {
  refuse_dispensed_unless_forced: 'already_dispensed',
  refuse_expired_unless_forced: 'expired',
};

/** A refusal a rule answers, and the code `force=true` overrides it by, when it may. */
export interface Refusal {
  readonly error: ErxError;
  readonly overridable?: OverrideCode;
}

/** The refusal the table names for `operation` in the current state of one `aspect`, if any. */
export function stateRefusal(
  operation: Operation,
  aspect: Aspect,
  facts: ChainFacts,
  principal: Principal,
): Refusal | undefined {
  const condition = conditionOf(aspect, facts, principal);
  if (condition === undefined) return undefined;
  const outcome = STATE_RULES[operation][condition];
  const error = refusal(outcome, facts);
  if (error === undefined) return undefined;
  const overridable = FORCIBLE[outcome];
  return overridable === undefined ? { error } : { error, overridable };
}

/**
 * Throws the refusal the table names for `operation` in the current state of one `aspect`, before
 * anything is appended. With `force` (the dispense's `force=true`), a refusal force may override
 * is not thrown but answered: the code of what was overridden, for the event to record.
 */
export function refuseByState(
  operation: Operation,
  aspect: Aspect,
  facts: ChainFacts,
  principal: Principal,
  force = false,
): OverrideCode | undefined {
  const refused = stateRefusal(operation, aspect, facts, principal);
  if (refused === undefined) return undefined;
  if (force && refused.overridable !== undefined) return refused.overridable;
  throw refused.error;
}
