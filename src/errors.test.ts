/**
 * The typed errors of each part of erx share one shape (`ReasonedError`): the reason picks a fixed
 * message, the subclass the code, and so the HTTP status; the name is the class's own.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DocumentDecodeError } from './chmed16a/index.js';
import { ErxError, ReasonedError, isErxError } from './errors.js';
import { HTTP_STATUS } from './http/status.js';
import { JsonError } from './json/index.js';
import { KeyringError, LINK_ERROR_REASONS, LinkError } from './link/index.js';
import { PkiError } from './pki/index.js';

interface Case {
  readonly error: ReasonedError<string>;
  readonly name: string;
  readonly reason: string;
  readonly status: number;
  readonly causeCode: string;
  readonly message: string;
  readonly retryAfter?: number;
}

const CASES: readonly Case[] = [
  {
    error: new LinkError('no_fragment'),
    name: 'LinkError',
    reason: 'no_fragment',
    status: 400,
    causeCode: 'no_fragment',
    message: 'The prescription link has no "#" fragment.',
  },
  {
    error: new KeyringError('busy'),
    name: 'KeyringError',
    reason: 'busy',
    status: 503,
    causeCode: 'keyring_busy',
    message: 'The link signing key ring is being rotated; try again.',
    retryAfter: 1,
  },
  {
    error: new KeyringError('corrupt', new Error('bad JSON')),
    name: 'KeyringError',
    reason: 'corrupt',
    status: 500,
    causeCode: 'keyring_corrupt',
    message: 'The link signing key ring is corrupt.',
  },
  {
    error: new PkiError('root_exists'),
    name: 'PkiError',
    reason: 'root_exists',
    status: 500,
    causeCode: 'internal_error',
    message: 'PKI: a root CA already exists and is never overwritten',
  },
  {
    error: new DocumentDecodeError('bad_gzip'),
    name: 'DocumentDecodeError',
    reason: 'bad_gzip',
    status: 400,
    causeCode: 'bad_request',
    message: 'The prescription data is not a valid gzip stream',
  },
  {
    error: new JsonError('too_deep'),
    name: 'JsonError',
    reason: 'too_deep',
    status: 400,
    causeCode: 'bad_request',
    message: 'JSON is nested too deeply',
  },
];

describe('typed errors', () => {
  for (const c of CASES) {
    it(`${c.name} '${c.reason}': HTTP ${c.status}, cause ${c.causeCode}, its fixed message`, () => {
      const { error } = c;
      assert.ok(error instanceof ReasonedError && isErxError(error));
      assert.equal(error.name, c.name);
      assert.equal(error.reason, c.reason);
      assert.equal(HTTP_STATUS[error.code], c.status);
      assert.equal(error.causeCode, c.causeCode);
      assert.equal(error.message, c.message);
      assert.equal(error.retryAfter, c.retryAfter);
      assert.match(String(error), new RegExp(`^${c.name}: `));
    });
  }

  it('every link reason has its own message and answers it as cause.Code', () => {
    const messages = new Set<string>();
    for (const reason of LINK_ERROR_REASONS) {
      const error = new LinkError(reason);
      assert.equal(error.causeCode, reason);
      assert.equal(error.code, 'bad_request');
      assert.ok(error.message.length > 0);
      messages.add(error.message);
    }
    assert.equal(messages.size, LINK_ERROR_REASONS.length);
  });

  it('an ErxError without a reason keeps its own name', () => {
    const error = new ErxError('conflict', 'Already dispensed.');
    assert.equal(error.name, 'ErxError');
    assert.equal(error.causeCode, 'conflict');
    assert.equal(error instanceof ReasonedError, false);
  });
});
