/**
 * SPEC.md §6 `prescription_hash_check_passed`: the create event's `prescription_hash` is the
 * SHA-256 of the link's `CHMED16A1<data>` string (SPEC.md §3).
 */
import type { EventBody } from './event.js';
import { sha256Hex } from './hash.js';

/** The `prescription_hash` of a create event for the link's `CHMED16A1…` string. */
export function prescriptionHash(chmed: string): string {
  return sha256Hex(chmed);
}

/** True when `createEvent` is a create event whose `prescription_hash` matches `chmed`. */
export function checkPrescriptionHash(createEvent: EventBody | undefined, chmed: string): boolean {
  return (
    createEvent?.type === 'create' && createEvent.prescription_hash === prescriptionHash(chmed)
  );
}
