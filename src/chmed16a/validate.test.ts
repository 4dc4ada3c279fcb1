import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { prescriptionArbitrary } from '../../test/support/chmed16a-arbitrary.js';
import { prescriptionSchema } from './schema.js';
import {
  FORMAT_MAX_LENGTH,
  assertPrescription,
  isPrescription,
  validatePrescription,
} from './validate.js';
import { ErxError } from '../errors.js';
import { vectorFolder } from '../../test/support/vectors.js';
import { LINEAR_GROWTH, growth } from '../../test/support/timing.js';

interface ValidateVector {
  name: string;
  source: string;
  input: unknown;
  expected: { valid: true } | { valid: false; violationPaths: string[] };
}

const vectors = vectorFolder<ValidateVector>('chmed16a/validate');

describe('validatePrescription: seed §2.1 vectors', () => {
  test('the vector folder is not empty', () => {
    assert.ok(vectors.length > 0, 'no vectors in test/vectors/chmed16a/validate');
  });

  for (const { file, vector } of vectors) {
    test(`${file}: ${vector.name}`, () => {
      assert.ok(vector.source.length > 0, 'every vector names its source');
      const violations = validatePrescription(vector.input);
      for (const v of violations) assert.ok(v.message.length > 0, `empty message at ${v.path}`);
      if (vector.expected.valid) {
        assert.deepEqual(violations, []);
        assert.equal(isPrescription(vector.input), true);
      } else {
        const paths = [...new Set(violations.map((v) => v.path))].sort();
        assert.deepEqual(paths, [...vector.expected.violationPaths].sort());
        assert.equal(isPrescription(vector.input), false);
      }
    });
  }
});

describe('validatePrescription: documents', () => {
  test('examples/prescription.json is valid', () => {
    const example: unknown = JSON.parse(
      readFileSync(new URL('../../examples/prescription.json', import.meta.url), 'utf8'),
    );
    assert.deepEqual(validatePrescription(example), []);
  });

  test('generated valid documents have no violation', () => {
    fc.assert(
      fc.property(prescriptionArbitrary(), (doc) => {
        assert.deepEqual(validatePrescription(doc), []);
      }),
      { numRuns: 500 },
    );
  });

  test('nothing is coerced, stripped or filled in', () => {
    const doc = {
      Id: 'x',
      MedType: 3,
      Auth: '7601001234567',
      Dt: '2025-03-14T09:30:00Z',
      Patient: { FName: 'A', LName: 'B', BDt: '2000-01-01', City: 'Bern' },
      Medicaments: [{ Id: '1', IdType: 1, Rep: '3' }],
    };
    const before = structuredClone(doc);
    assert.deepEqual(
      validatePrescription(doc).map((v) => v.path),
      ['/Medicaments/0/Rep'],
    );
    assert.deepEqual(doc, before);
  });
});

describe('assertPrescription', () => {
  test('throws bad_request listing every violation', () => {
    assert.throws(
      () => assertPrescription({ MedType: 1 }),
      (error: unknown) => {
        assert.ok(error instanceof ErxError);
        assert.equal(error.code, 'bad_request');
        assert.deepEqual(error.violations?.map((v) => v.path).sort(), [
          '/Auth',
          '/Dt',
          '/Id',
          '/MedType',
          '/Medicaments',
          '/Patient',
        ]);
        return true;
      },
    );
  });
});

describe('prescriptionSchema', () => {
  test('is plain JSON data without $id or $schema (published in OpenAPI 3.1)', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(prescriptionSchema)), prescriptionSchema);
    assert.equal('$id' in prescriptionSchema, false);
    assert.equal('$schema' in prescriptionSchema, false);
  });
});

describe('validatePrescription: linear-time patterns', () => {
  // Patterns and formats must not backtrack (ReDoS): the cost of judging values of 100,000
  // characters grows no faster than linearly from 25,000.
  const hostile = (length: number) => {
    const long = '1'.repeat(length);
    const attack = `${long}x`;
    return {
      Id: attack,
      MedType: 3,
      Auth: attack,
      Dt: `2025-03-14T${long}`,
      Zsr: attack,
      Patient: { FName: 'A', LName: 'B', BDt: attack, Zip: attack },
      HcPerson: { FName: 'A', LName: 'B', Gln: attack, Zsr: attack },
      HcOrg: { Name: 'N', Street: 'S', Zip: attack, City: 'C', Zsr: attack },
      Medicaments: [{ Id: '1', IdType: 1, Unit: 'x', Pos: [{ D: [1], DtTo: `2025-${long}` }] }],
    };
  };

  test('a document of 100,000-character values is judged in linear time', () => {
    const docs = new Map([25_000, 100_000].map((n) => [n, hostile(n)]));
    const paths = validatePrescription(docs.get(100_000)).map((v) => v.path);
    assert.deepEqual(paths.sort(), [
      '/Auth',
      '/Dt',
      '/HcOrg/Zip',
      '/HcOrg/Zsr',
      '/HcPerson/Gln',
      '/HcPerson/Zsr',
      '/Medicaments/0/Pos/0/DtTo',
      '/Patient/Zip',
    ]);
    const grew = growth((n) => validatePrescription(docs.get(n)), 25_000);
    assert.ok(grew < LINEAR_GROWTH, `4 times the length cost ${grew} times as much`);
  });
});

describe('validatePrescription: Dt length', () => {
  const example = JSON.parse(
    readFileSync(new URL('../../examples/prescription.json', import.meta.url), 'utf8'),
  ) as Record<string, unknown>;
  const at = (Dt: string) => {
    assert.deepEqual(validatePrescription(example), [], 'the example is valid');
    return validatePrescription({ ...example, Dt }).filter((v) => v.path === '/Dt');
  };

  test(`refuses a date-time longer than ${FORMAT_MAX_LENGTH['date-time']} characters without parsing it`, () => {
    const fraction = '9'.repeat(FORMAT_MAX_LENGTH['date-time']);
    assert.equal(at(`2025-03-14T09:30:00.${fraction}Z`).length, 1);
    assert.equal(at('\t'.repeat(100_000)).length, 1);
  });

  test('still accepts RFC 3339 date-times up to that length', () => {
    assert.deepEqual(at('2025-03-14T09:30:00Z'), []);
    assert.deepEqual(at('2025-03-14T09:30:00.123456789+01:00'), []);
    const longest = `2025-03-14T09:30:00.${'1'.repeat(FORMAT_MAX_LENGTH['date-time'] - 26)}+01:00`;
    assert.equal(longest.length, FORMAT_MAX_LENGTH['date-time']);
    assert.deepEqual(at(longest), []);
  });
});
