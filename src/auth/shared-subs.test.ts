import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { subsOfBothRoles } from './shared-subs.js';

const client = (clientId: string, role: 'prescriber' | 'pharmacist', sub: string) => ({
  clientId,
  role,
  sub,
});

describe('one sub has one role', () => {
  it('finds the subs held by clients of both roles, with their ids by role', () => {
    assert.deepEqual(
      subsOfBothRoles([
        client('doc1', 'prescriber', 'HIN|a'),
        client('doc1-laptop', 'prescriber', 'HIN|a'),
        client('ph1', 'pharmacist', 'HIN|b'),
        client('ph1-till', 'pharmacist', 'HIN|b'),
        client('shared-ph', 'pharmacist', 'HIN|a'),
        client('doc2', 'prescriber', 'HIN|c'),
      ]),
      [{ sub: 'HIN|a', prescribers: ['doc1', 'doc1-laptop'], pharmacists: ['shared-ph'] }],
    );
    assert.deepEqual(subsOfBothRoles([]), []);
  });
});
