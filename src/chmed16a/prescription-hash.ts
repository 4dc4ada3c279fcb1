/**
 * The `prescription_hash` stored with the create event (SPEC.md §3, §6).
 */
import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256 of the UTF-8 bytes of a `CHMED16A1...` string, exactly as given. */
export function prescriptionHash(chmed: string): string {
  return createHash('sha256').update(chmed, 'utf8').digest('hex');
}
