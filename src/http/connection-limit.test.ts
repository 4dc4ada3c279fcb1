/**
 * The addresses exempt from the bound on connections per address (`ERX_TRUST_PROXY`): single
 * addresses and networks of both families, IPv4 clients of an IPv6 listener included.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { addressList } from './connection-limit.js';

describe('connection limit: the trusted proxies', () => {
  const list = addressList(['10.0.0.0/8', '192.0.2.7', '2001:db8::/32', '::1']);

  it('matches the listed addresses and the addresses of the listed networks', () => {
    assert.equal(list.check('10.200.3.4', 'ipv4'), true);
    assert.equal(list.check('192.0.2.7', 'ipv4'), true);
    assert.equal(list.check('2001:db8:1::5', 'ipv6'), true);
    assert.equal(list.check('::1', 'ipv6'), true);
    assert.equal(list.check('::ffff:10.1.1.1', 'ipv6'), true, 'IPv4 written as IPv6');
  });

  it('matches nothing else', () => {
    assert.equal(list.check('11.0.0.1', 'ipv4'), false);
    assert.equal(list.check('192.0.2.8', 'ipv4'), false);
    assert.equal(list.check('2001:db9::1', 'ipv6'), false);
    assert.equal(addressList([]).check('127.0.0.1', 'ipv4'), false);
  });
});
