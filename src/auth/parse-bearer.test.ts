import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ErxError } from '../errors.js';
import { MAX_TOKEN_LENGTH } from './access-token.js';
import { parseBearer } from './parse-bearer.js';

const TOKEN = 'Zm9vYmFy-_.~+/abc==';

describe('parseBearer', () => {
  it('answers undefined when there is no header', () => {
    assert.equal(parseBearer(undefined), undefined);
  });

  const accepted: [string, string][] = [
    [`Bearer acs:${TOKEN}`, TOKEN],
    [`Bearer oauth:${TOKEN}`, TOKEN],
    [`bearer acs:${TOKEN}`, TOKEN],
    [`BEARER oauth:${TOKEN}`, TOKEN],
    [`Bearer   acs:${TOKEN}`, TOKEN],
    [
      'Bearer acs:eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
      'eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln',
    ],
    [`Bearer acs:${'a'.repeat(MAX_TOKEN_LENGTH)}`, 'a'.repeat(MAX_TOKEN_LENGTH)],
  ];
  for (const [header, token] of accepted) {
    it(`accepts ${JSON.stringify(header.slice(0, 40))}`, () => {
      assert.equal(parseBearer(header), token);
    });
  }

  const refused: Record<string, string> = {
    empty: '',
    'scheme only': 'Bearer',
    'scheme and space': 'Bearer ',
    'no prefix': `Bearer ${TOKEN}`,
    'unknown prefix': `Bearer xyz:${TOKEN}`,
    'prefix in capitals': `Bearer ACS:${TOKEN}`,
    'empty token after acs:': 'Bearer acs:',
    'empty token after oauth:': 'Bearer oauth:',
    Basic: 'Basic dXNlcjpwYXNz',
    'Basic with acs:': `Basic acs:${TOKEN}`,
    'no space': `Beareracs:${TOKEN}`,
    'tab instead of space': `Bearer\tacs:${TOKEN}`,
    'space inside the token': 'Bearer acs:abc def',
    'trailing space': `Bearer acs:${TOKEN} `,
    'padding in the middle': 'Bearer acs:ab=cd',
    'quote in the token': 'Bearer acs:abc"def',
    'non-ASCII token': 'Bearer acs:äbc',
    'newline in the token': 'Bearer acs:abc\ndef',
    'token too long': `Bearer acs:${'a'.repeat(MAX_TOKEN_LENGTH + 1)}`,
    garbage: '%%%###',
  };
  for (const [label, header] of Object.entries(refused)) {
    it(`refuses ${label} as unauthorized`, () => {
      assert.throws(
        () => parseBearer(header),
        (error: unknown) => error instanceof ErxError && error.code === 'unauthorized',
      );
    });
  }

  describe('a plain token with Token-Type (the HIN form)', () => {
    for (const type of ['HIN_ACS', 'HIN_JWT', 'OAUTH', 'oauth']) {
      it(`accepts Token-Type ${type}`, () => {
        assert.equal(parseBearer(`Bearer ${TOKEN}`, type), TOKEN);
      });
    }
    it('takes a prefixed token as it is, whatever the Token-Type', () => {
      assert.equal(parseBearer(`Bearer acs:${TOKEN}`, 'OAUTH'), TOKEN);
    });
    const refused: Record<string, [string, string | string[] | undefined]> = {
      'no Token-Type': [`Bearer ${TOKEN}`, undefined],
      'an unknown Token-Type': [`Bearer ${TOKEN}`, 'HIN_SAML'],
      'two Token-Type headers': [`Bearer ${TOKEN}`, ['HIN_ACS', 'OAUTH']],
      'a token that is not a b64token': ['Bearer abc def', 'HIN_ACS'],
      'a token too long': [`Bearer ${'a'.repeat(MAX_TOKEN_LENGTH + 1)}`, 'HIN_ACS'],
    };
    for (const [label, [header, type]] of Object.entries(refused)) {
      it(`refuses ${label} as unauthorized`, () => {
        assert.throws(
          () => parseBearer(header, type),
          (error: unknown) => error instanceof ErxError && error.code === 'unauthorized',
        );
      });
    }
  });
});
