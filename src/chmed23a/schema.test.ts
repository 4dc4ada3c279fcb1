import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Ajv } from 'ajv';
import { IG_EXAMPLES } from '../../test/support/chmed23a-fixtures.js';
import { Medication } from './schema.js';

const ajv = new Ajv({ strict: true, allErrors: true, strictRequired: false });
const validate = ajv.compile(Medication);

describe('the CHMED23A model (IG eMediplan chmed23a/README.md)', () => {
  test('takes every example document of the IG', () => {
    for (const example of IG_EXAMPLES) {
      assert.equal(
        validate(example.json),
        true,
        `${example.name}: ${ajv.errorsText(validate.errors)}`,
      );
    }
  });

  test('checks an object by its type `t`, at the field that breaks it', () => {
    const doc = structuredClone(IG_EXAMPLES[3]!.json) as { meds: Record<string, unknown>[] };
    doc.meds[0]!.reps = { t: 2, d: 0, u: 6 };
    doc.meds[1]!.reps = { t: 9 };
    assert.equal(validate(doc), false);
    const paths = (validate.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);
    assert.ok(paths.includes('/meds/0/reps/d minimum'), paths.join('; '));
    assert.ok(paths.includes('/meds/1/reps/t enum'), paths.join('; '));
  });

  test('keeps fields it does not know (a reader ignores them)', () => {
    const doc = { ...IG_EXAMPLES[0]!.json, future: { any: 1 } };
    assert.equal(validate(doc), true);
  });
});
