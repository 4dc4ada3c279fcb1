/**
 * The store takes data and answers data: no method of the store or of its parts takes a function
 * (an append's decision is made by the service and handed over as data), and the top level of the
 * interface stays narrow, the rest living in its parts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { openSqliteStore } from './sqlite/sqlite-store.js';
import type { Store } from './types.js';

type AnyFunction = (...args: never[]) => unknown;

/** The names of the methods of `T` (and of its parts, at any depth) that take a function. */
type TakesFunction<T> = {
  [K in keyof T]-?: T[K] extends (...args: infer A) => unknown
    ? [Extract<A[number], AnyFunction>] extends [never]
      ? never
      : K
    : T[K] extends object
      ? TakesFunction<T[K]>
      : never;
}[keyof T];

type IsNever<T> = [T] extends [never] ? true : false;

describe('store interface', () => {
  it('has no method, on the store or its parts, that takes a function', () => {
    const none: IsNever<TakesFunction<Store>> = true;
    // The check names a method that would call its caller back.
    // @ts-expect-error `append` takes a function
    const caught: IsNever<TakesFunction<{ part: { append(decide: () => void): void } }>> = true;
    assert.equal(none, true);
    assert.equal(caught, true);
  });

  it('keeps its top level to lifecycle, the chain reads and writes, and named parts', async () => {
    const store = openSqliteStore(':memory:');
    try {
      const methods = Object.getOwnPropertyNames(Object.getPrototypeOf(store)).filter(
        (name) => name !== 'constructor' && typeof Reflect.get(store, name) === 'function',
      );
      assert.deepEqual(methods.sort(), [
        'appendEvent',
        'close',
        'getEvent',
        'holdChain',
        'insertPrescription',
        'migrate',
        'ping',
        'readChain',
        'schemaVersion',
      ]);
      const parts = ['catalog', 'clients', 'feed', 'idempotency', 'log', 'prescriptions'];
      for (const part of [...parts, 'verifiedHeads']) {
        assert.equal(typeof Reflect.get(store, part), 'object', part);
      }
    } finally {
      await store.close();
    }
  });
});
