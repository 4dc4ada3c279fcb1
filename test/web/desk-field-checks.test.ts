/**
 * The desk's refusals at the field (web/src/desk/field-checks.ts), without a browser: packages a
 * whole number from 1 to 10,000, repeats 0 to 24, doses numbers of 0 or more, dates real dates,
 * and controls the browser could not read.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { emptyDraft } from '../../web/src/desk/draft.js';
import type { Draft } from '../../web/src/desk/draft.js';
import { fieldProblemKey, fieldProblems, isRealDate } from '../../web/src/desk/field-checks.js';

function draft(change: (d: Draft) => void): Draft {
  const d = emptyDraft();
  change(d);
  return d;
}

const at = (d: Draft, unreadable: string[] = []) => fieldProblems(d, unreadable).map((v) => v.path);

describe('desk field checks', () => {
  test('packages: a whole number from 1 to 10,000', () => {
    for (const ok of ['1', '10000', ' 3 ']) {
      assert.deepEqual(at(draft((d) => (d.medicaments[0]!.packs = ok))), [], ok);
    }
    for (const bad of ['0', '-1', '10001', '1.5', '1e3', '', 'zwei']) {
      assert.deepEqual(
        at(draft((d) => (d.medicaments[0]!.packs = bad))),
        ['/Medicaments/0/NbPack'],
        bad,
      );
    }
  });

  test('repeats 0 to 24 or empty; doses 0 or more', () => {
    for (const ok of ['', '0', '24']) {
      assert.deepEqual(at(draft((d) => (d.medicaments[0]!.repeats = ok))), [], ok);
    }
    for (const bad of ['25', '-1', '2.5']) {
      assert.deepEqual(at(draft((d) => (d.medicaments[0]!.repeats = bad))), ['/Medicaments/0/Rep']);
    }
    const doses = draft((d) => (d.medicaments[0]!.doses = ['-1', '0,5', 'x', '']));
    assert.deepEqual(at(doses), ['/Medicaments/0/Pos/0/D/0', '/Medicaments/0/Pos/0/D/2']);
  });

  test('dates are real calendar dates; unreadable controls are named', () => {
    for (const ok of ['2026-02-28', '2028-02-29', '1900-01-01']) assert.ok(isRealDate(ok), ok);
    for (const bad of ['2026-02-30', '2027-02-29', '20255-01-01', '0202-01-01', '2026-13-01']) {
      assert.equal(isRealDate(bad), false, bad);
    }
    const d = draft((x) => {
      x.patient.BDt = '1850-01-01';
      x.medicaments[0]!.until = '';
    });
    assert.deepEqual(at(d, ['/Medicaments/0/Pos/0/DtTo']), [
      '/Patient/BDt',
      '/Medicaments/0/Pos/0/DtTo',
    ]);
  });

  test('each refusal carries its wording; a service violation has none of the desk', () => {
    const [packs] = fieldProblems(draft((d) => (d.medicaments[0]!.packs = '0')));
    assert.equal(fieldProblemKey(packs!), 'check.wholeNumber');
    assert.deepEqual([packs!.params['min'], packs!.params['max']], [1, 10_000]);
    assert.equal(
      fieldProblemKey({ path: '/Rep', code: 'maximum', message: 'x', params: { limit: 24 } }),
      undefined,
    );
  });
});
