/**
 * The desk's plausibility (web/src/desk/plausibility.ts), without a browser: doses with a decimal
 * comma or point, GS1 check digits of GLNs and GTINs, and the warnings a draft gets by pointer.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { buildDocument, emptyDraft } from '../../web/src/desk/draft.js';
import type { Draft } from '../../web/src/desk/draft.js';
import {
  gs1CheckDigitOk,
  highDoses,
  parseDecimal,
  plausibility,
  toConfirm,
} from '../../web/src/desk/plausibility.js';

const TODAY = '2026-11-27';

function draft(change: (d: Draft) => void): Draft {
  const d = emptyDraft();
  change(d);
  return d;
}

function keys(d: Draft): Record<string, string[]> {
  return Object.fromEntries(
    [...plausibility(d, TODAY)].map(([pointer, list]) => [pointer, list.map((w) => w.key)]),
  );
}

describe('desk plausibility', () => {
  test('doses read a decimal comma or point; anything else is no number', () => {
    for (const [text, value] of [
      ['0,5', 0.5],
      ['0.5', 0.5],
      [' 1,25 ', 1.25],
      [',5', 0.5],
      ['2', 2],
      ['2,', 2],
    ] as const) {
      assert.equal(parseDecimal(text), value, text);
    }
    for (const text of ['', '1/2', '0,5,1', '-1', '1e3', 'abc', '0 5']) {
      assert.equal(parseDecimal(text), undefined, text);
    }
  });

  test('the document carries 0,5 as 0.5 and keeps all four times of day', () => {
    const d = draft((x) => {
      x.medicaments[0]!.doses = ['0,5', '', '1', ''];
      x.medicaments[0]!.unit = 'Tablette';
    });
    const doc = buildDocument(d, 'id', new Date('2026-11-27T10:00:00Z'));
    const [med] = doc.Medicaments as { Pos: { D: number[] }[] }[];
    assert.deepEqual(med!.Pos[0]!.D, [0.5, 0, 1, 0]);
  });

  test('GS1 check digits of GLNs and GTINs', () => {
    for (const ok of ['7601001234567', '7680543201015', '7680621130046', '4006381333931']) {
      assert.equal(gs1CheckDigitOk(ok), true, ok);
    }
    for (const wrong of ['7601001234568', '7680543201016', '4006381333932']) {
      assert.equal(gs1CheckDigitOk(wrong), false, wrong);
    }
  });

  test('each warning at its field; a complete, plausible draft has none', () => {
    const d = draft((x) => {
      x.person.Gln = '7601001234568';
      x.auth = '7601001234567';
      x.patient.BDt = '2027-01-15';
      x.org.Email = 'praxis@see';
      x.medicaments[0]!.id = '7680543201016';
      x.medicaments[0]!.until = '2026-11-26';
      x.medicaments[0]!.doses = ['50', 'x', '10', ''];
    });
    assert.deepEqual(keys(d), {
      '/HcPerson/Gln': ['warn.gln'],
      '/Patient/BDt': ['warn.birthFuture'],
      '/HcOrg/Email': ['warn.email'],
      '/Medicaments/0/Id': ['warn.gtin'],
      '/Medicaments/0/Pos/0/DtTo': ['warn.untilPast'],
      '/Medicaments/0/Pos/0/D/0': ['warn.doseHigh'],
      '/Medicaments/0/Pos/0/D/1': ['warn.doseNumber'],
    });
    assert.deepEqual(
      highDoses(d).map((h) => [h.index, h.slot, h.dose, h.text]),
      [[0, 0, 50, '50']],
    );
    // All but the e-mail's shape and doses are confirmed before issuing (doses apart).
    assert.deepEqual(
      toConfirm(d, TODAY).map((c) => [c.pointer, c.warning.key]),
      [
        ['/Patient/BDt', 'warn.birthFuture'],
        ['/HcPerson/Gln', 'warn.gln'],
        ['/Medicaments/0/Id', 'warn.gtin'],
        ['/Medicaments/0/Pos/0/DtTo', 'warn.untilPast'],
      ],
    );
    const fine = draft((x) => {
      x.person.Gln = '7601001234567';
      x.patient.BDt = TODAY;
      x.org.Email = 'praxis@example.ch';
      x.medicaments[0]!.id = '7680543201015';
      x.medicaments[0]!.until = TODAY;
      x.medicaments[0]!.doses = ['1', '0,5', '10', ''];
    });
    assert.deepEqual(keys(fine), {});
    // A pharmacode or free text is no GTIN; a half-typed GLN is not judged yet.
    const other = draft((x) => {
      x.person.Gln = '760100123';
      x.medicaments[0]!.idType = '3';
      x.medicaments[0]!.id = '1234567';
    });
    assert.deepEqual(keys(other), {});
  });

  test('a GTIN has 8, 12, 13 or 14 digits', () => {
    for (const [id, expected] of [
      ['76805', ['warn.gtinLength']],
      ['036000291452', []],
      ['96385074', []],
      ['7680543201015x', ['warn.gtinLength']],
      ['768054320101500', ['warn.gtinLength']],
      ['07680543201015', []],
    ] as const) {
      const d = draft((x) => {
        x.medicaments[0]!.id = id;
      });
      assert.deepEqual(keys(d)['/Medicaments/0/Id'] ?? [], expected, id);
      assert.equal(toConfirm(d, TODAY).length, expected.length, id);
    }
  });
});
