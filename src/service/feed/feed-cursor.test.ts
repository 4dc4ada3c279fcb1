/**
 * Feed cursors: each position has one spelling, read back as itself; anything else is a 400
 * naming the parameter or header it came in.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ErxError } from '../../errors.js';
import { formatCursor, parseCursor } from './feed-cursor.js';

describe('feed cursors', () => {
  it('reads back every position it writes', () => {
    for (const position of [0, 1, 35, 36, 1_000_000, Number.MAX_SAFE_INTEGER]) {
      assert.equal(parseCursor(formatCursor(position), 'after'), position);
    }
  });

  it('refuses what it never wrote, naming where it came from', () => {
    const refused = [
      '',
      '7',
      'f1.',
      'f1.-1',
      'f1.01',
      'f1.A',
      'f1.1.5',
      'f2.1',
      ' f1.1',
      'f1.1 ',
      'f1.zzzzzzzzzzzz',
    ];
    for (const text of refused) {
      assert.throws(
        () => parseCursor(text, 'Last-Event-ID'),
        (error: unknown) =>
          error instanceof ErxError &&
          error.code === 'bad_request' &&
          error.violations?.[0]?.path === '/Last-Event-ID',
        text,
      );
    }
  });
});
