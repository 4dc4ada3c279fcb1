/** The prescriber's list (`GET /ePrescription/prescriptions`, SPEC.md §5): one page at a time. */
import { callJson } from './http.js';
import type { CallOptions } from './http.js';
import type { ListState, PrescriptionList } from './types.js';

/**
 * One page of the prescriptions the caller issued, after `after`, narrowed to `state`, of at most
 * `limit` (default 20).
 */
export function listIssued(
  token: CallOptions['token'],
  query: { state?: ListState | undefined; after?: string | undefined; limit?: number | undefined },
): Promise<PrescriptionList> {
  const params = new URLSearchParams({ limit: String(query.limit ?? 20) });
  if (query.state !== undefined) params.set('state', query.state);
  if (query.after !== undefined) params.set('after', query.after);
  return callJson(`/ePrescription/prescriptions?${params.toString()}`, { method: 'GET', token });
}
