import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { JsonError, MAX_JSON_DEPTH, checkForbiddenKeys, parseJsonSafe } from './parse-safe.js';
import type { JsonErrorReason } from './parse-safe.js';
import { assertRefused as assertRefusal } from '../../test/support/refusals.js';

const assertRefused = (fn: () => unknown, reason: JsonErrorReason): void =>
  assertRefusal(JsonError, fn, reason);

const arrays = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const objects = (depth: number): string => '{"a":'.repeat(depth - 1) + '{}' + '}'.repeat(depth - 1);

describe('parseJsonSafe: depth (SPEC.md §9)', () => {
  test('MAX_JSON_DEPTH is 32', () => {
    assert.equal(MAX_JSON_DEPTH, 32);
  });

  test('32 levels of arrays or objects parse, 33 are too deep', () => {
    assert.deepEqual(parseJsonSafe(arrays(32)), JSON.parse(arrays(32)));
    assert.deepEqual(parseJsonSafe(objects(32)), JSON.parse(objects(32)));
    assertRefused(() => parseJsonSafe(arrays(33)), 'too_deep');
    assertRefused(() => parseJsonSafe(objects(33)), 'too_deep');
  });

  test('mixed nesting counts arrays and objects alike', () => {
    const mixed = '[{"a":'.repeat(16) + '1' + '}]'.repeat(16);
    assert.ok(parseJsonSafe(mixed));
    assertRefused(() => parseJsonSafe(`[${mixed}]`), 'too_deep');
  });

  test('siblings do not add up: depth is the deepest path', () => {
    const wide = `[${Array.from({ length: 1000 }, () => arrays(31)).join(',')}]`;
    assert.equal((parseJsonSafe(wide) as unknown[]).length, 1000);
  });

  test('brackets inside strings, escaped quotes included, are not nesting', () => {
    const text = JSON.stringify({ a: '['.repeat(100), b: '\\"{{{{', c: '"]]]' + '{'.repeat(50) });
    assert.deepEqual(parseJsonSafe(text), JSON.parse(text));
  });

  test('an escaped backslash before a closing quote ends the string', () => {
    const text = `["\\\\", ${arrays(32)}]`;
    assertRefused(() => parseJsonSafe(text), 'too_deep');
  });

  test('maxDepth option lowers or raises the limit', () => {
    assertRefused(() => parseJsonSafe(arrays(3), { maxDepth: 2 }), 'too_deep');
    assert.deepEqual(parseJsonSafe(arrays(40), { maxDepth: 40 }), JSON.parse(arrays(40)));
    assert.equal(parseJsonSafe('1', { maxDepth: 0 }), 1);
  });

  test('1,000,000 levels are refused without a stack overflow', () => {
    assertRefused(() => parseJsonSafe(arrays(1_000_000)), 'too_deep');
  });

  test('depth is checked before the text is parsed at all', () => {
    // Too deep and malformed: the depth scan answers first.
    assertRefused(() => parseJsonSafe('['.repeat(100)), 'too_deep');
  });

  test('a leading byte order mark is not JSON: the text is refused, not read past it', () => {
    assertRefused(() => parseJsonSafe('\ufeff{"a":1}'), 'bad_json');
  });
});

describe('parseJsonSafe: forbidden keys', () => {
  const refused = [
    '{"__proto__":{"polluted":true}}',
    '{"constructor":{"prototype":{"polluted":true}}}',
    '{"a":[1,{"b":{"__proto__":null}}]}',
    '[{"constructor":1}]',
    '{"\\u005f\\u005fproto\\u005f\\u005f":{"polluted":true}}',
    '{"construct\\u006fr":1}',
  ];
  for (const text of refused) {
    test(`refuses ${text}`, () => {
      assertRefused(() => parseJsonSafe(text), 'forbidden_key');
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
    });
  }

  test('the words as values or as parts of keys are fine', () => {
    const text = '{"a":"__proto__","constructors":1,"x__proto__":2,"b":["constructor"]}';
    assert.deepEqual(parseJsonSafe(text), JSON.parse(text));
  });

  test('checkForbiddenKeys walks an already-parsed value', () => {
    assert.doesNotThrow(() => checkForbiddenKeys({ a: [{ b: 1 }], c: null }));
    assertRefused(() => checkForbiddenKeys(JSON.parse('{"a":[{"__proto__":1}]}')), 'forbidden_key');
  });
});

describe('parseJsonSafe: the checks on the text agree with walking the value', () => {
  const key = fc.constantFrom(
    'a',
    '__proto__',
    'constructor',
    'x__proto__',
    '\\u005f_proto__',
    'construct\\u006fr',
    '[{',
  );
  const leaf = fc
    .constantFrom('1', 'null', '"[[{"', '"\\\\"', '"\\"{"', '"constructor"')
    .map((text) => ({ text, depth: 0 }));
  type Node = { text: string; depth: number };
  const deepest = (nodes: Node[]): number => 1 + Math.max(0, ...nodes.map((n) => n.depth));
  // Texts with their nesting as written (duplicate keys are kept in the text, not in the parse).
  const { value } = fc.letrec<{ value: Node }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small' },
      leaf,
      fc.array(tie('value'), { maxLength: 3 }).map((items) => ({
        text: `[${items.map((i) => i.text).join(',')}]`,
        depth: deepest(items),
      })),
      fc.array(fc.tuple(key, tie('value')), { maxLength: 3 }).map((entries) => ({
        text: `{${entries.map(([k, v]) => `"${k}":${v.text}`).join(',')}}`,
        depth: deepest(entries.map(([, v]) => v)),
      })),
    ),
  }));

  test('refused as too deep, for a forbidden key, or parsed, exactly as the walk says (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 36 }), value, (wrap, inner) => {
        const text = '['.repeat(wrap) + inner.text + ']'.repeat(wrap);
        if (wrap + inner.depth > MAX_JSON_DEPTH) {
          return assertRefused(() => parseJsonSafe(text), 'too_deep');
        }
        const expected = JSON.parse(text) as unknown;
        try {
          checkForbiddenKeys(expected);
        } catch {
          return assertRefused(() => parseJsonSafe(text), 'forbidden_key');
        }
        assert.deepEqual(parseJsonSafe(text), expected);
      }),
      { numRuns: 2_000 },
    );
  });
});

describe('parseJsonSafe: bad JSON', () => {
  for (const text of ['', '{', '{"a":1,}', "{'a':1}", 'NaN', '[1] [2]', '{"a":1}x', '\u0000']) {
    test(`refuses ${JSON.stringify(text)}`, () => {
      assertRefused(() => parseJsonSafe(text), 'bad_json');
    });
  }

  test('scalars are JSON too', () => {
    assert.equal(parseJsonSafe('null'), null);
    assert.equal(parseJsonSafe(' "x" '), 'x');
    assert.equal(parseJsonSafe('-1.5e3'), -1500);
  });

  test('any JSON text of bounded depth parses exactly as JSON.parse does (property)', () => {
    fc.assert(
      fc.property(fc.json({ maxDepth: 10 }), (text) => {
        let expected: unknown;
        let forbidden = false;
        try {
          checkForbiddenKeys((expected = JSON.parse(text)));
        } catch {
          forbidden = true;
        }
        if (forbidden) assertRefused(() => parseJsonSafe(text), 'forbidden_key');
        else assert.deepEqual(parseJsonSafe(text), expected);
      }),
      { numRuns: 1_000 },
    );
  });
});
