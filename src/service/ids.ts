/**
 * Prescription ids (SPEC.md §10): UUIDs, compared case-insensitively and stored in lower case, so
 * an upper-case copy of an id names the same prescription; the nil UUID is no id.
 */
import type { Violation } from '../errors.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const NIL = '00000000-0000-0000-0000-000000000000';

/** The id as erx stores and compares it. */
export function canonicalId(id: string): string {
  return id.toLowerCase();
}

/**
 * Why `id` cannot be a new prescription's id (a violation at `path`: `/Id` in CHMED16A, `/id` in
 * CHMED23A), or undefined when it can.
 */
export function idProblem(id: string, path = '/Id'): Violation | undefined {
  if (!UUID.test(id)) {
    return {
      path,
      code: 'not_uuid',
      message: 'must be a UUID (ids must be unguessable)',
      params: {},
    };
  }
  if (id === NIL)
    return { path, code: 'nil_uuid', message: 'must not be the nil UUID', params: {} };
  return undefined;
}
