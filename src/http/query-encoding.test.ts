import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { malformedQueryParameters } from './query-encoding.js';

describe('malformedQueryParameters', () => {
  it('accepts well-formed percent-encoded UTF-8, plus signs and empty parts', () => {
    for (const url of [
      '/x',
      '/x?',
      '/x?reason=',
      '/x?reason=R%C3%BCckfrage%2050%25%20%E2%9C%93&force=true',
      '/x?reason=a+b&&flag',
      '/x?reason=%F0%9F%98%80',
    ]) {
      assert.deepEqual(malformedQueryParameters(url), [], url);
    }
  });

  it('names each parameter whose value is not percent-encoded UTF-8, once', () => {
    const cases: [string, (string | undefined)[]][] = [
      ['/x?reason=%FF', ['reason']],
      ['/x?reason=%E2%82', ['reason']], // a truncated sequence
      ['/x?reason=50%', ['reason']], // a lone percent sign
      ['/x?reason=%ZZ', ['reason']],
      ['/x?reason=%C0%80', ['reason']], // an overlong NUL
      ['/x?reason=%ED%A0%80', ['reason']], // a surrogate
      ['/x?force=true&reason=%FF&reason=%FE', ['reason']],
      ['/x?re%61son=%FF', ['reason']], // named as decoded
      ['/x?%FF=1&reason=ok', [undefined]], // a name that does not decode
    ];
    for (const [url, expected] of cases) {
      assert.deepEqual(malformedQueryParameters(url), expected, url);
    }
  });
});
