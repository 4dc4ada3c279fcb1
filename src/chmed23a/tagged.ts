/**
 * The CHMED23A "objects" (IG eMediplan `chmed23a/conventions.md`): an object whose `t` says which
 * variant it is and which fields it has. As JSON Schema: `t` one of the variants' values, then
 * each variant's fields checked when `t` names it, so that a violation points at the field that
 * breaks it (an `anyOf` would report every variant's complaint at once).
 */
import Type from 'typebox';
import type { Static, TLiteral, TObject, TProperties, TSchema, TUnion } from 'typebox';

/** A variant: its `t` and its fields. */
export type Variant = TObject<TProperties & { t: TLiteral<number> }>;

/** The `t` of a variant. */
function tagOf(variant: Variant): number {
  return (variant.properties.t as TSchema & { const: number }).const;
}

/** One JSON Schema of the union of `variants`, typed as that union, with `description`. */
export function tagged<V extends Variant[]>(variants: [...V], description: string) {
  const tags = variants.map(tagOf);
  return Type.Unsafe<Static<TUnion<V>>>({
    type: 'object',
    description,
    required: ['t'],
    properties: { t: { type: 'integer', enum: tags } },
    allOf: variants.map((variant) => ({
      if: {
        type: 'object',
        required: ['t'],
        properties: { t: { const: variant.properties.t.const } },
      },
      then: variant,
    })),
  });
}
