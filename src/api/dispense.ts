/** The dispense request (seed §2.2, §4.1; SPEC.md §5 and §9). */
import Type from 'typebox';
import type { Static } from 'typebox';
import { NO_CONTROL_CHARACTERS } from '../chmed16a/schema.js';
import { PLAIN_TEXT_PATTERN, Reason } from './params.js';
import { onTheWire } from './wire.js';

/** One dispensed item (seed §2.2): `substitute` and `substitute_id_type` come together. */
export const DispenseItem = Type.Object(
  {
    id: Type.String({
      minLength: 1,
      maxLength: 200,
      pattern: NO_CONTROL_CHARACTERS,
      description: 'The `Id` of a medicament of the prescription. No control characters.',
    }),
    amount: Type.Integer({ minimum: 1, maximum: 10_000, description: 'Quantity dispensed.' }),
    substitute: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 500,
        pattern: PLAIN_TEXT_PATTERN,
        description:
          'Identifier of the substitute medication dispensed instead. No control or ' +
          'bidirectional control characters.',
      }),
    ),
    substitute_id_type: Type.Optional(
      Type.Integer({
        enum: [1, 2, 3],
        description: '1 free text (extemporaneous preparation), 2 GTIN, 3 pharmacy product code.',
      }),
    ),
  },
  {
    $id: 'DispenseItem',
    additionalProperties: false,
    // `substitute` requires `substitute_id_type` and vice versa (SPEC.md §5), in keywords that
    // both Ajv's default draft and OpenAPI 3.1 know.
    allOf: [
      { if: { required: ['substitute'] }, then: { required: ['substitute_id_type'] } },
      { if: { required: ['substitute_id_type'] }, then: { required: ['substitute'] } },
    ],
  },
);
export type DispenseItem = Static<typeof DispenseItem>;

/** The dispense body: no body at all is a full dispensation (seed §4.1 rule 1). */
export const DispenseBody = Type.Array(DispenseItem, {
  $id: 'DispenseBody',
  minItems: 1,
  maxItems: 50,
  description:
    'The items dispensed together (a partial or substitute dispensation). Send no body for a ' +
    'full dispensation.',
});
export type DispenseBody = Static<typeof DispenseBody>;

/**
 * What `force` may say (SPEC.md §5): `true` or `false`, also `1`/`0`, in any case, as HTTP clients
 * commonly send booleans; anything else is a 400.
 */
export const FORCE_PATTERN = '^([Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0)$';

/** The value of a `force` query parameter; undefined when it is none of {@link FORCE_PATTERN}. */
export function readForce(value: string): boolean | undefined {
  switch (value.toLowerCase()) {
    case 'true':
    case '1':
      return true;
    case 'false':
    case '0':
      return false;
    default:
      return undefined;
  }
}

/** The query of a dispense: `force` and the reason recorded with it. */
export const ForceQuery = Type.Object({
  force: Type.Optional(
    onTheWire(
      Type.String({
        pattern: FORCE_PATTERN,
        description:
          '`true` (also `1`, any case) dispenses although the prescription is fully dispensed, ' +
          'expired, or the items exceed the prescribed packages or substitute what must not be ' +
          'substituted; the event records what was overridden (`event_data.force`, `overrides`). ' +
          '`false` or `0` is the same as leaving it out.',
      }),
      { type: 'boolean' },
    ),
  ),
  reason: Type.Optional(Reason),
});
export type ForceQuery = Static<typeof ForceQuery>;
