/**
 * The desk composing CHMED23A (web/src/desk/draft-chmed23a.ts), without a browser: a filled form
 * is a prescription the service's CHMED23A profile takes, with the form's values under their
 * CHMED23A names; the service's violations land at the form's fields.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { validateChmed23Prescription } from '../../src/chmed23a/validate.js';
import { composeDocument, formPointer } from '../../web/src/desk/draft-chmed23a.js';
import { emptyDraft } from '../../web/src/desk/draft.js';
import type { Draft } from '../../web/src/desk/draft.js';
import { PRESCRIBER_GLN } from '../support/chmed23a-fixtures.js';

const ID = '0b0e2c3e-6a1f-4a4f-9a53-2f7cbb1e9c11';
const NOW = new Date('2030-03-14T09:30:00.000Z');

function filledDraft(): Draft {
  const d = emptyDraft();
  d.patient = {
    FName: 'Anna',
    LName: 'Muster',
    BDt: '1968-05-21',
    Gender: '2',
    Street: 'Bahnhofstrasse 1',
    Zip: '3000',
    City: 'Bern',
    CardNumber: '80756012345678901234',
  };
  d.person = { FName: 'Hans', LName: 'Arzt', Gln: PRESCRIBER_GLN, Zsr: 'A123456' };
  d.org = { ...d.org, Name: 'Praxis Arzt', Street: 'Marktgasse 2', Zip: '3011', City: 'Bern' };
  d.medicaments = [
    {
      ...d.medicaments[0]!,
      id: '7680543201015',
      unit: 'Tablette',
      doses: ['1', '', '0,5', ''],
      packs: '2',
      repeats: '3',
      substitutionAllowed: false,
    },
    {
      ...d.medicaments[0]!,
      id: 'Salbe nach Rezeptur',
      idType: '1',
      instructions: 'dünn auftragen',
    },
  ];
  return d;
}

describe('the desk composing CHMED23A', () => {
  test('a filled form is a prescription the CHMED23A profile takes, its values renamed', () => {
    const { doc, view } = composeDocument('CHMED23A', filledDraft(), ID, NOW);
    assert.deepEqual(validateChmed23Prescription(doc), []);
    assert.equal(doc.id, ID);
    assert.equal(doc.dt, NOW.toISOString());
    const [first, second] = doc.meds as Record<string, unknown>[];
    assert.deepEqual(first, {
      idType: 2,
      id: '7680543201015',
      pos: [{ po: { t: 1, ds: [1, 0, 0.5, 0] }, unit: 'Tablette' }],
      nbPack: 2,
      reps: { t: 1, v: 3 },
      isNotSub: true,
    });
    assert.deepEqual(second!.pos, [
      { po: { t: 2, text: 'dünn auftragen' }, appInstr: 'dünn auftragen' },
    ]);
    assert.deepEqual((doc.patient as Record<string, unknown>).ids, [
      { type: 1, val: '80756012345678901234' },
    ]);
    assert.equal(view.patient.birthDate, '1968-05-21');
    assert.equal(view.medicaments.length, 2);
  });

  test('CHMED16A stays as it was: no card number, the service’s pointers as they come', () => {
    const { doc, pointer } = composeDocument('CHMED16A', filledDraft(), ID, NOW);
    assert.equal((doc.Patient as Record<string, unknown>).CardNumber, undefined);
    assert.equal(pointer('/Patient/Zip'), '/Patient/Zip');
  });

  test('the service’s CHMED23A violations land at the form’s fields', () => {
    const cases: [string, string][] = [
      ['/patient/bdt', '/Patient/BDt'],
      ['/patient/fName', '/Patient/FName'],
      ['/patient/gender', '/Patient/Gender'],
      ['/patient/ids', '/Patient/CardNumber'],
      ['/patient/ids/0/val', '/Patient/CardNumber'],
      ['/hcPerson/gln', '/HcPerson/Gln'],
      ['/hcOrg/zip', '/HcOrg/Zip'],
      ['/meds/1/nbPack', '/Medicaments/1/NbPack'],
      ['/meds/0/reps/v', '/Medicaments/0/Rep'],
      ['/meds/0/isNotSub', '/Medicaments/0/Subs'],
      ['/meds/0/pos/0/unit', '/Medicaments/0/Unit'],
      ['/meds/0/pos/0/po/ds/2', '/Medicaments/0/Pos/0/D/2'],
      ['/meds/0/pos/0/dtTo', '/Medicaments/0/Pos/0/DtTo'],
      ['/dt', '/Dt'],
    ];
    for (const [from, to] of cases) assert.equal(formPointer(from), to, from);
  });

  test('an empty form names what CHMED23A requires at the form’s fields', () => {
    const { doc, pointer } = composeDocument('CHMED23A', emptyDraft(), ID, NOW);
    const at = new Set(validateChmed23Prescription(doc).map((v) => pointer(v.path)));
    for (const field of ['/Patient/FName', '/Patient/Gender', '/Patient/CardNumber']) {
      assert.ok(at.has(field), `${field} in ${[...at].join(', ')}`);
    }
  });
});
