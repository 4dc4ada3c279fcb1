/**
 * Query parameters whose route validates their text with a pattern (queries are never coerced,
 * SPEC.md §9) while a client sends a number or a boolean: the schema carries the type on the wire
 * under {@link WIRE}, and the OpenAPI document shows that type, so a generated client takes a
 * `number` or a `boolean`.
 */
import type { TSchema } from 'typebox';

/** The schema keyword of the type on the wire (an OpenAPI extension; Ajv knows it as a no-op). */
export const WIRE = 'x-wire';

/** `schema` (a pattern over the text) with the type a client sends, `wire`. */
export function onTheWire<T extends TSchema>(schema: T, wire: object): T {
  return { ...schema, [WIRE]: wire };
}
