/**
 * SHA-256 as the ledger uses it (SPEC.md §3 `prescription_hash`, §7 event `hash`): lowercase hex
 * over the UTF-8 bytes of a string.
 */
import { hash } from 'node:crypto';

/** Lowercase hex SHA-256 of the UTF-8 bytes of `text`. */
export function sha256Hex(text: string): string {
  // One-shot: no Hash object per call (node:crypto `hash`, Node ≥ 20.12).
  return hash('sha256', text, 'hex');
}

/** True for a lowercase 64-digit hex string (the form of every ledger hash). */
export function isSha256Hex(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/.test(value);
}
