import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ErxError } from '../errors.js';
import { TLOG_ERROR_REASONS, TlogError } from './tlog-error.js';

test('every tlog reason has its own message, a tlog_ cause code and a status', () => {
  const messages = new Set<string>();
  for (const reason of TLOG_ERROR_REASONS) {
    const error = new TlogError(reason, 'detail');
    assert.ok(error instanceof ErxError);
    assert.equal(error.name, 'TlogError');
    assert.equal(error.reason, reason);
    assert.equal(error.causeCode, `tlog_${reason}`);
    assert.equal(error.detail, 'detail');
    const operator = reason === 'hash_reader' || reason === 'signing_key';
    assert.equal(error.code, operator ? 'internal_error' : 'bad_request');
    messages.add(error.message);
  }
  assert.equal(messages.size, TLOG_ERROR_REASONS.length);
  assert.ok(TLOG_ERROR_REASONS.length >= 10);
});
