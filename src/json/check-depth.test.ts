import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { checkDepth } from './check-depth.js';
import { JsonError } from './parse-safe.js';

function nest(depth: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

function assertTooDeep(fn: () => unknown): void {
  assert.throws(fn, (error: unknown) => {
    assert.ok(error instanceof JsonError);
    assert.equal(error.code, 'bad_request');
    assert.equal(error.reason, 'too_deep');
    return true;
  });
}

describe('checkDepth', () => {
  test('accepts 32 levels and refuses 33 by default', () => {
    assert.doesNotThrow(() => checkDepth(nest(32)));
    assertTooDeep(() => checkDepth(nest(33)));
  });

  test('scalars have depth 0', () => {
    for (const value of [1, 'x', null, true, undefined]) {
      assert.doesNotThrow(() => checkDepth(value, 0));
    }
    assertTooDeep(() => checkDepth([], 0));
  });

  test('a given maxDepth is honoured', () => {
    assert.doesNotThrow(() => checkDepth(nest(5), 5));
    assertTooDeep(() => checkDepth(nest(6), 5));
  });

  test('1,000,000 levels are refused without a stack overflow', () => {
    assertTooDeep(() => checkDepth(nest(1_000_000)));
  });

  test('a cyclic value is refused instead of looping', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    assertTooDeep(() => checkDepth(cyclic));
  });
});
