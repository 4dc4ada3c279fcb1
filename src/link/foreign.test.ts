import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FOREIGN_LINKS } from '../../test/support/foreign-links.js';
import { ForeignLinkError, readForeignLink } from './foreign.js';
import { LinkError } from './link-error.js';
import { parseLink } from './parse.js';

const ERX_BASE = 'http://localhost:8080/rx/';
const DOC = 'CHMED16A1H4sIAAAAAAAAA6tWykxRslIyNDJR0lFKT81LzSvJLElVslJSKk4tykvMTVWqBQCyhMRmIQAAAA==';
const SIG = 'ab'.repeat(64);
const HIN_SIG = 'cd'.repeat(65);

describe('readForeignLink: links erx did not issue (SPEC.md §3)', () => {
  test('reads every published link of another issuer: its host, issuer label and time', () => {
    assert.ok(FOREIGN_LINKS.length >= 4);
    for (const fixture of FOREIGN_LINKS) {
      const foreign = readForeignLink(fixture.link);
      assert.ok(foreign !== undefined, fixture.name);
      assert.equal(foreign.host, fixture.host, fixture.name);
      assert.equal(foreign.issuer ?? null, fixture.issuer, fixture.name);
      assert.equal(foreign.issuedAt ?? null, fixture.issuedAt, fixture.name);
      assert.equal(foreign.chmed, fixture.link.slice(fixture.link.indexOf('#') + 1).split('&')[0]);
      // erx's own parser refuses each of them.
      assert.throws(() => parseLink(fixture.link), LinkError, fixture.name);
    }
  });

  test('names the fields that make a link another issuer’s', () => {
    const cases: [string, string][] = [
      ['a signature segment of its own (older HIN links)', `&${'q'.repeat(200)}`],
      ['an extra field before i, t and s (HIN links)', `&q07l+${HIN_SIG}&i=Dr.+A&t=1&s=${HIN_SIG}`],
      ['an s of 130 hex digits', `&i=Dr.+A&t=1&s=${HIN_SIG}`],
      ['an s that is not hex', `&i=Dr.+A&t=1&s=${'z'.repeat(128)}`],
      ['a field too many after erx’s three', `&i=Dr.+A&t=1&s=${SIG}&x=1`],
      ['a field missing', `&i=Dr.+A&s=${SIG}`],
      ['no field at all', ''],
      ['i given twice', `&i=A&i=B&s=${SIG}`],
    ];
    for (const [name, fields] of cases) {
      const foreign = readForeignLink(`https://eprescription.hin.ch/#${DOC}${fields}`);
      assert.equal(foreign?.host, 'eprescription.hin.ch', name);
      assert.equal(foreign.chmed, DOC, name);
    }
  });

  test('leaves a link in erx’s form to parseLink, even a malformed or forged one', () => {
    for (const fields of [
      `&i=Dr.+A&t=1&s=${SIG}`,
      `&i=Dr.+A&t=1&s=${SIG.toUpperCase()}`,
      `&t=1&i=Dr.+A&s=${SIG}`,
      `&i=%ZZ&t=soon&s=${SIG}`,
    ]) {
      assert.equal(readForeignLink(`${ERX_BASE}#${DOC}${fields}`), undefined, fields);
      assert.equal(readForeignLink(`https://eprescription.hin.ch/#${DOC}${fields}`), undefined);
    }
  });

  test('is no link of another issuer without a document after # and a host before it', () => {
    for (const text of [
      DOC,
      `${DOC}&x=1`,
      `https://eprescription.hin.ch/${DOC}&x=1`,
      `https://eprescription.hin.ch/#CHMED16A1&x=1`,
      `https://eprescription.hin.ch/#CHMED16B1AAAA&x=1`,
      `https://eprescription.hin.ch/#x${DOC}&x=1`,
      `urn:rx#${DOC}&x=1`,
      `eprescription.hin.ch/#${DOC}&x=1`,
      `https://${'a'.repeat(300)}.ch/#${DOC}&x=1`,
      `https://eprescription.hin.ch/#${'A'.repeat(70_000)}`,
    ]) {
      assert.equal(readForeignLink(text), undefined, text.slice(0, 60));
    }
  });

  test('reads i and t only when they are readable, and trims blanks around the link', () => {
    const foreign = readForeignLink(`\n https://X.example:8443/rx#${DOC}&i=%ZZ&t=soon&x \r\n`);
    assert.deepEqual(foreign, {
      baseUrl: 'https://X.example:8443/rx',
      host: 'x.example:8443',
      chmed: DOC,
      issuer: undefined,
      issuedAt: undefined,
    });
  });

  test('is refused at verify as 400 foreign_link naming the host', () => {
    const error = new ForeignLinkError('eprescription.hin.ch');
    assert.equal(error.code, 'bad_request');
    assert.equal(error.causeCode, 'foreign_link');
    assert.deepEqual(error.params, { host: 'eprescription.hin.ch' });
    assert.match(error.message, /issued by eprescription\.hin\.ch, not by this service/);
  });
});
