import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chooseIntrospectionProtocol, isIntrospectionProtocol } from './introspection-protocol.js';

describe('chooseIntrospectionProtocol', () => {
  const cases: [string, string][] = [
    ['https://auth.example/REST/v1/OAuth/GetTokenInfo', 'gettokeninfo'],
    ['https://auth.example/REST/v1/OAuth/GetTokenInfo/', 'gettokeninfo'],
    ['http://127.0.0.1:9000/rest/v1/oauth/gettokeninfo?x=1', 'gettokeninfo'],
    ['https://auth.example/realms/erx/protocol/openid-connect/token/introspect', 'rfc7662'],
    ['https://auth.example/oauth2/introspect', 'rfc7662'],
    ['https://auth.example/GetTokenInfoV2', 'rfc7662'],
  ];
  for (const [url, protocol] of cases) {
    it(`${url} ⇒ ${protocol}`, () => {
      assert.equal(chooseIntrospectionProtocol(url), protocol);
    });
  }

  it('lets an explicit choice win over the path', () => {
    const seedPath = 'https://auth.example/REST/v1/OAuth/GetTokenInfo';
    assert.equal(chooseIntrospectionProtocol(seedPath, 'rfc7662'), 'rfc7662');
    assert.equal(
      chooseIntrospectionProtocol('https://a.example/introspect', 'gettokeninfo'),
      'gettokeninfo',
    );
  });

  it('names the two protocols and nothing else', () => {
    assert.equal(isIntrospectionProtocol('gettokeninfo'), true);
    assert.equal(isIntrospectionProtocol('rfc7662'), true);
    assert.equal(isIntrospectionProtocol('RFC7662'), false);
    assert.equal(isIntrospectionProtocol(''), false);
  });
});
