/** The prescription calls of SPEC.md §5, one function each. */
import { callJson } from './http.js';
import type { Token } from './http.js';
import { newUuid } from './uuid.js';
import type {
  CreateResult,
  DispenseItem,
  LedgerEvent,
  StatusResult,
  VerifyResult,
} from './types.js';

const BASE = '/ePrescription';

function segment(value: string): string {
  return encodeURIComponent(value);
}

function reasonQuery(reason: string): string {
  return reason.trim() === '' ? '' : `?reason=${encodeURIComponent(reason.trim())}`;
}

/** Verifies a link; with a token, the answer carries the transactions (seed §2.3). */
export function verify(link: string, token?: Token): Promise<VerifyResult> {
  return callJson(`${BASE}/verify`, { token, body: link.trim(), contentType: 'text/plain' });
}

/** The status of a link for its holder: validity end and packages left when it is genuine. */
export function status(link: string): Promise<StatusResult> {
  return callJson(`${BASE}/status`, { body: link.trim(), contentType: 'text/plain' });
}

/** Creates a prescription from a CHMED16A document and answers its link and id. */
export function create(document: unknown, token: Token): Promise<CreateResult> {
  return callJson(`${BASE}/create?output-format=data`, {
    token,
    body: JSON.stringify(document),
    contentType: 'application/json',
    idempotencyKey: newUuid(),
  });
}

/**
 * Records a dispensation: no items is a full one (seed §4.1 rule 1). A forced one carries its
 * reason, recorded in the event with the rules it overrode (SPEC.md §10).
 */
export function dispense(
  id: string,
  items: readonly DispenseItem[] | undefined,
  force: boolean,
  reason: string | undefined,
  token: Token,
): Promise<LedgerEvent> {
  const query = force ? `?force=true${reasonQuery(reason ?? '').replace('?', '&')}` : '';
  return callJson(`${BASE}/dispense/${segment(id)}${query}`, {
    token,
    idempotencyKey: newUuid(),
    ...(items === undefined
      ? {}
      : { body: JSON.stringify(items), contentType: 'application/json' }),
  });
}

/** Locks a prescription while the patient is served. */
export function lock(id: string, reason: string, token: Token): Promise<LedgerEvent> {
  return callJson(`${BASE}/lock/${segment(id)}${reasonQuery(reason)}`, {
    token,
    idempotencyKey: newUuid(),
  });
}

/** Releases a lock (the locking actor or the issuer). */
export function unlock(id: string, reason: string, token: Token): Promise<LedgerEvent> {
  return callJson(`${BASE}/unlock/${segment(id)}${reasonQuery(reason)}`, {
    token,
    idempotencyKey: newUuid(),
  });
}

/** Cancels one of the caller's own dispense events. */
export function cancelEvent(id: string, eventId: string, token: Token): Promise<LedgerEvent> {
  return callJson(`${BASE}/cancel/${segment(id)}/event/${segment(eventId)}`, {
    token,
    idempotencyKey: newUuid(),
  });
}

/** Revokes a prescription (its issuer only; final). */
export function revoke(id: string, token: Token): Promise<LedgerEvent> {
  return callJson(`${BASE}/revoke/${segment(id)}`, {
    token,
    idempotencyKey: newUuid(),
  });
}
