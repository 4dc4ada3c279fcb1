/**
 * Create's body in the OpenAPI document is a union of which exactly one member matches any body
 * (docs/decisions.md "The create body as a union told apart by required fields"), and the member
 * that matches is the release the service reads it as (`src/http/read-bodies.ts`).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import { encodeChmed } from '../chmed16a/index.js';
import { schemaFormats } from '../chmed16a/validate.js';
import { IG_WHOLE, sampleChmed23Prescription } from '../../test/support/chmed23a-fixtures.js';
import { samplePrescription } from '../../test/support/fixtures.js';
import { sharedSchemas } from '../api/shared-schemas.js';

const MEMBERS = ['Prescription', 'Chmed23aPrescription', 'TransmissionString'] as const;

const ajv = new Ajv({ strict: false, coerceTypes: false });
for (const [name, format] of Object.entries(schemaFormats)) ajv.addFormat(name, format);
for (const schema of sharedSchemas()) ajv.addSchema(schema);

/** The members of `CreateBody` that `body` matches. */
function membersMatching(body: unknown): string[] {
  return MEMBERS.filter((name) => ajv.validate({ $ref: name }, body));
}

test('CreateBody is oneOf the CHMED16A object, the CHMED23A object and the string', () => {
  const schema = sharedSchemas().find((s) => s.$id === 'CreateBody')!;
  assert.deepEqual(
    schema.oneOf,
    MEMBERS.map((name) => ({ $ref: name })),
  );
});

test('each release matches its own member only, and the union', () => {
  const cases: [unknown, string][] = [
    [samplePrescription(), 'Prescription'],
    [sampleChmed23Prescription(), 'Chmed23aPrescription'],
    [encodeChmed(samplePrescription()), 'TransmissionString'],
    [IG_WHOLE, 'TransmissionString'],
  ];
  for (const [body, member] of cases) {
    assert.deepEqual(membersMatching(body), [member]);
    assert.equal(ajv.validate({ $ref: 'CreateBody' }, body), true, member);
  }
});

test('an object with fields of both releases matches no member, as the service refuses it', () => {
  const sixteen = samplePrescription();
  const twentyThree = sampleChmed23Prescription();
  for (const body of [
    { ...twentyThree, Medicaments: sixteen.Medicaments },
    { ...twentyThree, MedType: 3 },
    { ...sixteen, meds: twentyThree.meds },
  ]) {
    assert.deepEqual(membersMatching(body), []);
    assert.equal(ajv.validate({ $ref: 'CreateBody' }, body), false);
  }
});
