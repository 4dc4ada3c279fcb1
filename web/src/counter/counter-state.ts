/**
 * What the counter shows at a glance and which actions it offers, read from the verify answer
 * with transactions (SPEC.md §5 "Rules of state", §10): one headline state, the lock and its
 * holder, and for each action the reason the service would refuse it. The page disables what
 * the service would refuse instead of letting the pharmacist run into the refusal.
 */
import { OVERRIDE_CODES } from '../../../src/ledger/event.js';
import type { OverrideCode } from '../../../src/ledger/event.js';
import { EVENT_KINDS } from '../../../src/ledger/event-kinds.js';
import { cancelledIn } from '../../../src/service/rules/cancel-chains.js';
import type { LedgerEvent, VerifyResult } from '../api/types.js';
import type { MessageKey } from '../i18n/messages-en.js';

/** The one state the headline names, most serious first. */
export type Headline =
  'revoked' | 'invalid' | 'expired' | 'dispensed' | 'lockedByOther' | 'lockedByMe' | 'open';

/** The rules a forced dispensation overrides (SPEC.md §10 `event_data.overrides`). */
export type OverrideRule = OverrideCode;

/** The lock that holds now, as the counter shows it. */
export interface LockView {
  /** The holder's name (verify's `locked_by`), else its actor id. */
  holder: string;
  /** The holder's actor id, from the lock event; undefined when the event is not shown. */
  actor: string | undefined;
  /** When the lock lapses (the lock event's `event_data.expires_at`), when recorded. */
  until: string | undefined;
  /** True when the signed-in actor holds it. */
  mine: boolean;
}

/**
 * Why an answer cannot be acted on (SPEC.md §6, §10): the link's address or signature, the
 * content against the hash recorded at issue, the recorded history's integrity.
 */
export type FailedCheck = 'signature' | 'content' | 'history';

/** The counter's reading of one verify answer. */
export interface CounterState {
  headline: Headline;
  /**
   * True when the answer carries the stored state (the variant with transactions), is valid and
   * passed every check: only then does the counter offer a dispensation, a lock or a cancel.
   */
  trusted: boolean;
  /** True when the answer is the short variant (no medicaments, events or checks). */
  short: boolean;
  /** What failed, one entry per failed check, in the order the checks are shown. */
  failures: readonly FailedCheck[];
  lock: LockView | undefined;
  /** Why a dispensation is refused outright (force does not help), if it is. */
  dispenseRefused: MessageKey | undefined;
  /** The rules any dispensation would override now (completion, validity). */
  stateOverrides: readonly OverrideRule[];
  /** True when no package of any medicament remains. */
  nothingRemains: boolean;
  /**
   * True when HIN's closing step is what remains (SPEC.md §5): partial dispensations covered the
   * prescription and no full dispensation stands, so a full dispensation without force closes it.
   */
  closable: boolean;
  /** Why locking is refused, if it is. */
  lockRefused: MessageKey | undefined;
  /** Whether the signed-in actor may unlock (it holds the lock). */
  mayUnlock: boolean;
  /** Why cancelling one's own event is refused, if it is. */
  cancelRefused: MessageKey | undefined;
}

/** The lock event that set the current lock: the last lock or unlock event, when it is a lock. */
function currentLockEvent(events: readonly LedgerEvent[]): LedgerEvent | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i]!;
    const fold = EVENT_KINDS[e.type].fold;
    if (fold === 'unlock') return undefined;
    if (fold === 'lock') return e;
  }
  return undefined;
}

function lockView(result: VerifyResult, me: string | undefined): LockView | undefined {
  if (result.locked !== true) return undefined;
  const event = currentLockEvent(result.events ?? []);
  const until = event?.event_data.expires_at;
  const actor = event?.actor;
  return {
    holder: result.locked_by || event?.actor_name || actor || '',
    actor,
    until: typeof until === 'string' ? until : undefined,
    mine: actor !== undefined && actor === me,
  };
}

/**
 * The checks `result` failed. A short answer has none to read: when it is not valid, its
 * signature failed (SPEC.md §10 "Who sees what"); so does a full answer not valid for another
 * reason than a failed check (a document that does not follow the schema).
 */
export function failedChecks(result: VerifyResult): FailedCheck[] {
  const checks = result.tampering_detection_result;
  const failed: FailedCheck[] = [];
  if (checks?.prescription_url_valid === false) failed.push('signature');
  if (checks?.prescription_hash_check_passed === false) failed.push('content');
  if (checks?.logs_check_passed === false) failed.push('history');
  if (failed.length === 0 && !result.valid) failed.push('signature');
  return failed;
}

/** True while a full dispensation of `events` stands (no standing cancel names it). */
function fullDispensationStands(events: readonly LedgerEvent[]): boolean {
  const { cancelled } = cancelledIn(events);
  return events.some((e) => EVENT_KINDS[e.type].fold === 'dispense_rest' && !cancelled.has(e.id));
}

/** Reads `result` for the signed-in actor `me` (its `sub`). */
export function counterState(result: VerifyResult, me: string | undefined): CounterState {
  const failures = failedChecks(result);
  const short = result.tampering_detection_result === undefined || result.medicaments === undefined;
  const trusted = failures.length === 0 && !short;
  const lock = lockView(result, me);
  const byOther = lock !== undefined && !lock.mine;
  const expired = result.expired === true;
  const medicaments = result.medicaments ?? [];
  const nothingRemains = medicaments.length > 0 && medicaments.every((m) => m.remaining === 0);
  let headline: Headline = 'open';
  if (result.revoked) headline = 'revoked';
  else if (failures.length > 0) headline = 'invalid';
  else if (expired) headline = 'expired';
  else if (result.dispensed) headline = 'dispensed';
  else if (byOther) headline = 'lockedByOther';
  else if (lock?.mine) headline = 'lockedByMe';
  // An answer not to be trusted refuses every action first: what it shows is not the record.
  let dispenseRefused: MessageKey | undefined;
  if (failures.length > 0) dispenseRefused = 'counter.why.invalid';
  else if (short) dispenseRefused = 'counter.why.short';
  else if (result.revoked) dispenseRefused = 'counter.why.revoked';
  else if (byOther) dispenseRefused = 'counter.why.lockedByOther';
  let lockRefused: MessageKey | undefined = dispenseRefused;
  if (lockRefused === undefined && (result.dispensed || nothingRemains)) {
    lockRefused = 'counter.why.nothingRemains';
  }
  const closable =
    trusted &&
    dispenseRefused === undefined &&
    !expired &&
    result.dispensed &&
    nothingRemains &&
    !fullDispensationStands(result.events ?? []);
  return {
    headline,
    trusted,
    short,
    failures,
    lock,
    dispenseRefused,
    stateOverrides: counterStateOverrides(result),
    nothingRemains,
    closable,
    lockRefused,
    mayUnlock: trusted && !result.revoked && lock?.mine === true,
    cancelRefused: dispenseRefused,
  };
}

/**
 * The rules dispensing `items` (undefined: everything that remains) would override now, besides
 * the state's: more packages than remain, a substitute where the document forbids one.
 */
export function itemOverrides(
  result: VerifyResult,
  items: readonly { id: string; amount: number; substitute?: string }[] | undefined,
): OverrideRule[] {
  const found = new Set<OverrideRule>(counterStateOverrides(result));
  const medicaments = new Map((result.medicaments ?? []).map((m) => [m.id, m]));
  const asked = new Map<string, number>();
  for (const item of items ?? []) {
    asked.set(item.id, (asked.get(item.id) ?? 0) + item.amount);
    const med = medicaments.get(item.id);
    if (item.substitute !== undefined && med?.substitution_allowed === false) {
      found.add('substitution_not_allowed');
    }
  }
  for (const [id, amount] of asked) {
    const med = medicaments.get(id);
    if (med !== undefined && amount > med.remaining) found.add('quantity_exceeded');
  }
  return OVERRIDE_CODES.filter((rule) => found.has(rule));
}

function counterStateOverrides(result: VerifyResult): OverrideRule[] {
  const rules: OverrideRule[] = [];
  if (result.dispensed) rules.push('already_dispensed');
  if (result.expired === true) rules.push('expired');
  return rules;
}

/** The rule a refusal names (SPEC.md §10 `cause.Code`; seed §7's 403 for "already dispensed"). */
export function refusedRule(
  status: number,
  causeCode: string | undefined,
): OverrideRule | undefined {
  if (status !== 403) return undefined;
  switch (causeCode) {
    case 'unknown_error':
      return 'already_dispensed';
    case 'quantity_exceeded':
    case 'substitution_not_allowed':
    case 'expired':
      return causeCode;
    default:
      return undefined;
  }
}
