/**
 * Assertions on erx's typed refusals (`ReasonedError` subclasses such as `LinkError`): the reason
 * an action is refused with.
 */
import assert from 'node:assert/strict';
import type { ReasonedError } from '../../src/errors.js';

/** A `ReasonedError` subclass, as `instanceof` takes it. */
export type Refusal<R extends string> = abstract new (...args: never[]) => ReasonedError<R>;

/** The reason of the `type` error `action` throws; fails when it throws nothing or another error. */
export function reasonOf<R extends string>(type: Refusal<R>, action: () => unknown): R {
  try {
    action();
  } catch (error) {
    assert.ok(error instanceof type, `expected a ${type.name}, got ${String(error)}`);
    return error.reason;
  }
  assert.fail(`expected a ${type.name}`);
}

/** Asserts that `action` throws a `type` error of code `bad_request` with `reason`. */
export function assertRefused<R extends string>(
  type: Refusal<R>,
  action: () => unknown,
  reason: R,
): void {
  assert.throws(action, (error: unknown) => {
    assert.ok(error instanceof type, `not a ${type.name}: ${String(error)}`);
    assert.equal(error.code, 'bad_request');
    assert.equal(error.reason, reason);
    return true;
  });
}
