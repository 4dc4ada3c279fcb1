/** What the CLI prints of stored text: no control or bidi character reaches a terminal raw. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { medicamentTable } from './medicament-table.js';
import { terminalJson, terminalText } from './terminal-text.js';

const HOSTILE = 'A\u001b[2J\u009b31m\u202eevil\u2066x\u2069\u2028\u0000';
// eslint-disable-next-line no-control-regex -- the characters that must never be printed raw
const RAW = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;

describe('text the CLI prints', () => {
  it('escapes control, C1, bidi and line-separator characters', () => {
    const shown = terminalText(HOSTILE);
    assert.doesNotMatch(shown, RAW);
    assert.equal(shown, 'A\\u001b[2J\\u009b31m\\u202eevil\\u2066x\\u2069\\u2028\\u0000');
  });

  it('keeps JSON that parses back to the same value', () => {
    const value = { Id: HOSTILE, n: 1 };
    const json = terminalJson(value, 2);
    assert.doesNotMatch(json.replaceAll('\n', ''), RAW);
    assert.deepEqual(JSON.parse(json), value);
  });

  it('escapes an Id in the table erx verify writes', () => {
    const table = medicamentTable({
      medicaments: [
        { id: HOSTILE, prescribed: 1, dispensed: 0, remaining: 1, substitution_allowed: true },
      ],
      expires_at: '2030-01-01T00:00:00Z',
      expired: false,
      locked_by: 'Apotheke\u202e',
    });
    assert.ok(table !== undefined);
    assert.doesNotMatch(table.replaceAll('\n', ''), RAW);
    assert.ok(table.includes('\\u001b[2J'));
  });
});
