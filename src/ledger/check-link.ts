/**
 * Check 2 of SPEC.md §6 `logs_check_passed`: the chain starts with its one create event, which
 * has no parent, and every later event names its predecessor's hash as `parent_hash`. Columns a
 * store keeps beside the signed body (position, parent hash) must agree with it: an edited column
 * is tampering even where it would not change the meaning.
 */
import type { CheckFailure } from './chain-failure.js';
import type { EventBody, LedgerRecord } from './event.js';

/** Checks the link of the event at `index`; `predecessorHash` is the stored hash before it. */
export function checkLink(
  body: EventBody,
  index: number,
  predecessorHash: string | undefined,
  record?: Pick<LedgerRecord, 'seq' | 'parentHash'>,
): CheckFailure | undefined {
  if (record?.seq !== undefined && record.seq !== index)
    return { check: 'link', reason: 'seq_mismatch' };
  if (record?.parentHash !== undefined && record.parentHash !== (body.parent_hash ?? null)) {
    return { check: 'link', reason: 'parent_column_mismatch' };
  }
  if (index === 0) {
    if (body.type !== 'create') return { check: 'link', reason: 'first_not_create' };
    if (body.parent_hash !== undefined) return { check: 'link', reason: 'create_has_parent' };
    return undefined;
  }
  if (body.type === 'create') return { check: 'link', reason: 'create_not_first' };
  if (predecessorHash === undefined || body.parent_hash !== predecessorHash) {
    return { check: 'link', reason: 'parent_mismatch' };
  }
  return undefined;
}
