/**
 * Prescription ids (SPEC.md §10): UUIDs, compared case-insensitively and stored in lower case, so
 * an upper-case copy of an id names the same prescription; the nil UUID is no id.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NIL = '00000000-0000-0000-0000-000000000000';

/** The id as erx stores and compares it. */
export function canonicalId(id: string): string {
  return id.toLowerCase();
}

/** Why `id` cannot be a new prescription's id, or undefined when it can. */
export function idProblem(id: string): string | undefined {
  if (!UUID.test(id)) return 'must be a UUID (ids must be unguessable)';
  if (id === NIL) return 'must not be the nil UUID';
  return undefined;
}
