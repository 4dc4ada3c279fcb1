/** GS1 check digits, the GTIN-13 a catalogue keeps, Pharmacodes, and how names are folded. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { gs1CheckDigitOk, gtin13, isPharmacode } from './gtin.js';
import { foldForSearch, searchText, tidyName } from './search-text.js';

describe('GTIN', () => {
  it('checks the GS1 mod 10 check digit', () => {
    for (const ok of ['7680991010016', '7640999000013', '4006381333931', '7601001000674']) {
      assert.equal(gs1CheckDigitOk(ok), true, ok);
    }
    for (const wrong of ['7680991010017', '7640999000010', '4006381333932']) {
      assert.equal(gs1CheckDigitOk(wrong), false, wrong);
    }
  });

  it('keeps 13 digits with a valid check digit, or 14 with a leading 0, as GTIN-13', () => {
    assert.equal(gtin13('7680991010016'), '7680991010016');
    assert.equal(gtin13('07680991010016'), '7680991010016');
    for (const no of ['7680991010017', '17680991010016', '768099101001', '7680991O10016', '']) {
      assert.equal(gtin13(no), undefined, no);
    }
  });

  it('takes 1 to 7 digits as a Pharmacode', () => {
    assert.equal(isPharmacode('9900011'), true);
    assert.equal(isPharmacode('1'), true);
    for (const no of ['', '12345678', 'ABC', '12 34']) assert.equal(isPharmacode(no), false, no);
  });
});

describe('search text', () => {
  it('folds case, accents and white space', () => {
    assert.equal(foldForSearch('  ÉPIDERMA   Crème\t1 %  '), 'epiderma creme 1 %');
    assert.equal(foldForSearch('Kräutertee ÇA'), 'krautertee ca');
    assert.equal(foldForSearch('DAFAL'), foldForSearch('dafal'));
  });

  it('keeps both names, once when they fold alike', () => {
    assert.equal(searchText('Crème A', 'Creme a'), 'creme a');
    assert.equal(searchText('Tabl', 'cpr'), 'tabl\ncpr');
  });

  it('tidies a name without folding it', () => {
    assert.equal(tidyName('  Crème \n  1 %  '), 'Crème 1 %');
  });
});
