import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { JsonError } from '../json/index.js';
import { canonicalJson } from './canonical-json.js';
import { parseEventBody } from './parse-event-body.js';
import { loadVectors } from '../../test/support/ledger/vectors.js';

describe('canonicalJson: RFC 8785 published examples', () => {
  const examples = loadVectors<string, { canonical: string; utf8Hex?: string }>(
    'rfc8785-examples.json',
  );
  for (const vector of examples) {
    test(vector.source, () => {
      const canonical = canonicalJson(JSON.parse(vector.input));
      assert.equal(canonical, vector.expected.canonical);
      if (vector.expected.utf8Hex !== undefined) {
        assert.equal(Buffer.from(canonical, 'utf8').toString('hex'), vector.expected.utf8Hex);
      }
    });
  }
});

describe('canonicalJson: RFC 8785 Appendix B numbers', () => {
  const numbers = loadVectors<{ ieee754: string }, { canonical?: string; refused?: boolean }>(
    'rfc8785-numbers.json',
  );
  for (const vector of numbers) {
    test(`${vector.input.ieee754} -> ${vector.expected.canonical ?? 'refused'}`, () => {
      const value = Buffer.from(vector.input.ieee754, 'hex').readDoubleBE(0);
      if (vector.expected.refused === true) {
        assert.throws(() => canonicalJson([value]), { code: 'bad_request' });
      } else {
        assert.equal(canonicalJson(value), vector.expected.canonical);
        assert.equal(canonicalJson([value]), `[${vector.expected.canonical}]`);
      }
    });
  }
});

describe('canonicalJson: values JSON cannot carry', () => {
  test('a lone surrogate is refused (RFC 8785 §3.2.2.2)', () => {
    assert.throws(() => canonicalJson({ a: '\ud800' }), { code: 'bad_request' });
  });

  test('undefined and cycles are refused', () => {
    assert.throws(() => canonicalJson(undefined), { code: 'bad_request' });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    assert.throws(() => canonicalJson(cyclic), { code: 'bad_request' });
  });
});

describe('canonicalJson never recurses deeper than the decode limit (SPEC.md §9)', () => {
  function nested(depth: number): unknown {
    let value: unknown = [];
    for (let i = 1; i < depth; i++) value = [value];
    return value;
  }

  test('a value nested 100,000 deep is refused as too deep, without a stack overflow', () => {
    assert.throws(
      () => canonicalJson(nested(100_000)),
      (error: unknown) => error instanceof JsonError && error.reason === 'too_deep',
    );
  });

  test('32 levels are canonicalised, 33 are refused', () => {
    assert.equal(canonicalJson(nested(32)), `${'['.repeat(32)}${']'.repeat(32)}`);
    assert.throws(
      () => canonicalJson(nested(33)),
      (error: unknown) => error instanceof JsonError && error.reason === 'too_deep',
    );
  });

  test('stored body text nested 100,000 deep is refused before parsing', () => {
    const text = `{"event_data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const parsed = parseEventBody(text);
    assert.equal(parsed.ok, false);
    assert.equal(parsed.ok ? undefined : parsed.reason, 'unparseable');
  });
});
