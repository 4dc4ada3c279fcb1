/** Which driver errors mean "retry later" (503) and which unique constraint a violation names. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isUnavailable, unavailable, violatedUniqueConstraint } from './errors.js';

function coded(code: string, message = 'x'): Error {
  return Object.assign(new Error(message), { code });
}

describe('postgres error classification', () => {
  const unavailableCases: [string, unknown][] = [
    ['connection refused', coded('ECONNREFUSED')],
    ['connection reset', coded('ECONNRESET')],
    ['admin shutdown 57P01', coded('57P01')],
    ['crash shutdown 57P02', coded('57P02')],
    ['cannot connect now 57P03', coded('57P03')],
    ['connection failure 08006', coded('08006')],
    ['connection does not exist 08003', coded('08003')],
    ['too many connections 53300', coded('53300')],
    ['statement timeout 57014', coded('57014')],
    ['idle in transaction timeout 25P03', coded('25P03')],
    ['deadlock 40P01', coded('40P01')],
    ['pool wait timeout', new Error('timeout exceeded when trying to connect')],
    ['connect timeout', new Error('Connection terminated due to connection timeout')],
    ['dropped connection', new Error('Connection terminated unexpectedly')],
    ['dead client', new Error('Client has encountered a connection error and is not queryable')],
    ['refused on every address', new AggregateError([coded('ECONNREFUSED')], '')],
    ['cause chain', new Error('wrapped', { cause: coded('ECONNRESET') })],
  ];
  for (const [label, error] of unavailableCases) {
    it(`reads ${label} as unavailable`, () => assert.equal(isUnavailable(error), true));
  }

  const otherCases: [string, unknown][] = [
    ['a unique violation', coded('23505')],
    ['an undefined table', coded('42P01')],
    ['a syntax error', coded('42601')],
    ['a foreign key violation', coded('23503')],
    ['a plain error', new Error('boom')],
    ['a string', 'ECONNREFUSED'],
    ['undefined', undefined],
  ];
  for (const [label, error] of otherCases) {
    it(`does not read ${label} as unavailable`, () => assert.equal(isUnavailable(error), false));
  }

  it('answers a fixed message with Retry-After 1 and keeps the driver error for the log', () => {
    const e = unavailable(coded('57P01', 'terminating connection due to administrator command'));
    assert.equal(e.code, 'service_unavailable');
    assert.equal(e.retryAfter, 1);
    assert.equal(e.message, 'The database is not available.');
    assert.deepEqual(e.detail, {
      engine: 'postgres',
      code: '57P01',
      error: 'terminating connection due to administrator command',
    });
  });

  it('names the violated unique constraint of a 23505 only', () => {
    const violation = Object.assign(coded('23505'), { constraint: 'idempotency_pkey' });
    assert.equal(violatedUniqueConstraint(violation), 'idempotency_pkey');
    const fk = Object.assign(coded('23503'), { constraint: 'events_prescription_fkey' });
    assert.equal(violatedUniqueConstraint(fk), undefined);
    assert.equal(violatedUniqueConstraint(new Error('x')), undefined);
  });
});
