import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ErxError } from '../errors.js';
import {
  basicAuthorization,
  parseBasicCredentials,
  pickClientCredentials,
} from './client-credentials.js';

function isError(code: string, causeCode: string) {
  return (error: unknown) =>
    error instanceof ErxError && error.code === code && error.causeCode === causeCode;
}

function basic(raw: string): string {
  return `Basic ${Buffer.from(raw, 'utf8').toString('base64')}`;
}

describe('HTTP Basic client credentials', () => {
  it('reads id and secret, form-decoding each (RFC 6749 §2.3.1)', () => {
    assert.deepEqual(parseBasicCredentials(basic('HIN%7Cpharma1:p%3Ass+w%25rd')), {
      clientId: 'HIN|pharma1',
      clientSecret: 'p:ss w%rd',
    });
  });

  it('splits at the first colon only', () => {
    assert.deepEqual(parseBasicCredentials(basic('client:a:b')), {
      clientId: 'client',
      clientSecret: 'a:b',
    });
  });

  it('round-trips any id and secret through basicAuthorization', () => {
    const pairs: [string, string][] = [
      ['plain', 'secret'],
      ['HIN|pharma 1', 'p:ss+w%rd&x=y'],
      ['Zürich', 'ünïcödé €'],
    ];
    for (const [clientId, clientSecret] of pairs) {
      const header = basicAuthorization(clientId, clientSecret);
      assert.match(header, /^Basic [A-Za-z0-9+/]+=*$/);
      assert.deepEqual(parseBasicCredentials(header), { clientId, clientSecret });
    }
  });

  it('accepts the scheme in any case', () => {
    assert.deepEqual(parseBasicCredentials(`bAsIc ${basic('a:b').slice(6)}`), {
      clientId: 'a',
      clientSecret: 'b',
    });
  });

  it('answers undefined without a header or with another scheme', () => {
    assert.equal(parseBasicCredentials(undefined), undefined);
    assert.equal(parseBasicCredentials('Bearer acs:abc'), undefined);
  });

  const malformed: Record<string, string> = {
    'no credentials': 'Basic',
    'not base64': 'Basic ***',
    'bad base64 length': 'Basic YWJj=',
    'no colon': basic('justanid'),
    'broken percent-encoding': basic('id:%zz'),
  };
  for (const [label, header] of Object.entries(malformed)) {
    it(`refuses ${label} as invalid_client`, () => {
      assert.throws(() => parseBasicCredentials(header), isError('unauthorized', 'invalid_client'));
    });
  }
});

describe('pickClientCredentials', () => {
  it('takes the form fields when there is no Basic header', () => {
    assert.deepEqual(
      pickClientCredentials({ authorization: undefined, clientId: 'a', clientSecret: 'b' }),
      { clientId: 'a', clientSecret: 'b' },
    );
  });

  it('takes Basic, also with the same client_id repeated in the form', () => {
    const authorization = basicAuthorization('a', 'b');
    const expected = { clientId: 'a', clientSecret: 'b' };
    const only = { authorization, clientId: undefined, clientSecret: undefined };
    assert.deepEqual(pickClientCredentials(only), expected);
    assert.deepEqual(pickClientCredentials({ ...only, clientId: 'a' }), expected);
  });

  it('refuses two authentication methods at once (RFC 6749 §2.3)', () => {
    const authorization = basicAuthorization('a', 'b');
    const both = { authorization, clientId: 'a', clientSecret: 'b' };
    const otherId = { authorization, clientId: 'c', clientSecret: undefined };
    assert.throws(() => pickClientCredentials(both), isError('bad_request', 'invalid_request'));
    assert.throws(() => pickClientCredentials(otherId), isError('bad_request', 'invalid_request'));
  });
});
