/**
 * The state of the pharmacy counter: the current link, its decoded document, the verify answer
 * with transactions, and the actions on it. Every action re-verifies afterwards, so the screen
 * always shows the service's own state rather than a guess.
 */
import { useCallback, useState } from 'preact/hooks';
import { ApiError } from '../api/http.js';
import * as api from '../api/prescriptions.js';
import type { Session } from '../api/session.js';
import type { DispenseItem, VerifyResult } from '../api/types.js';
import { errorMessage } from '../components/error-message.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';
import { decodeLink } from '../chmed/decode-link.js';
import type { DecodedLink } from '../chmed/decode-link.js';

/** A dispensation the service refused as already fully dispensed, waiting for confirmation. */
export interface PendingForce {
  items: DispenseItem[] | undefined;
}

export interface Counter {
  decoded: DecodedLink;
  result: VerifyResult | undefined;
  busy: boolean;
  error: string | undefined;
  message: string | undefined;
  pendingForce: PendingForce | undefined;
  load(link: string): Promise<void>;
  clear(): void;
  lock(reason: string): Promise<boolean>;
  unlock(reason: string): Promise<boolean>;
  dispense(items: DispenseItem[] | undefined): Promise<boolean>;
  confirmForce(): Promise<boolean>;
  abortForce(): void;
  cancel(eventId: string): Promise<boolean>;
}

// Seed §7: the refusal of a second full dispensation is a 403 `forbidden` whose cause code is
// `unknown_error`; other 403s (revoked, wrong role, not the owner) are not to be forced.
function isAlreadyDispensed(error: unknown): boolean {
  return (
    error instanceof ApiError &&
    error.status === 403 &&
    error.code === 'forbidden' &&
    error.body?.cause?.Code === 'unknown_error'
  );
}

export function useCounter(session: Session, onUnauthorized: () => void): Counter {
  const { t } = useI18n();
  const [decoded, setDecoded] = useState<DecodedLink>({ state: 'none' });
  const [result, setResult] = useState<VerifyResult | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [pendingForce, setPendingForce] = useState<PendingForce | undefined>(undefined);

  const fail = useCallback(
    (failure: unknown) => {
      if (failure instanceof ApiError && failure.status === 401) onUnauthorized();
      setError(errorMessage(failure, t));
    },
    [onUnauthorized, t],
  );

  const refresh = useCallback(
    async (link: string) => {
      setResult(await api.verify(link, session.token));
    },
    [session.token],
  );

  const load = useCallback(
    async (link: string) => {
      setBusy(true);
      setError(undefined);
      setMessage(undefined);
      setPendingForce(undefined);
      setResult(undefined);
      const next = await decodeLink(link);
      setDecoded(next);
      if (next.state !== 'ok') {
        setError(t('counter.notLink'));
        setBusy(false);
        return;
      }
      try {
        await refresh(next.link);
        setMessage(t('done.verified'));
      } catch (failure) {
        fail(failure);
      } finally {
        setBusy(false);
      }
    },
    [fail, refresh, t],
  );

  // Runs one mutating call, then re-verifies; true when the call was accepted.
  const act = useCallback(
    async (
      call: (id: string) => Promise<unknown>,
      done: MessageKey,
      onAlreadyDispensed?: () => void,
    ): Promise<boolean> => {
      if (decoded.state !== 'ok' || result === undefined) return false;
      setBusy(true);
      setError(undefined);
      setMessage(undefined);
      try {
        await call(result.prescription_id);
        setMessage(t(done));
        await refresh(decoded.link);
        return true;
      } catch (failure) {
        if (onAlreadyDispensed !== undefined && isAlreadyDispensed(failure)) onAlreadyDispensed();
        else fail(failure);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [decoded, result, refresh, fail, t],
  );

  const dispense = useCallback(
    (items: DispenseItem[] | undefined): Promise<boolean> =>
      act(
        (id) => api.dispense(id, items, false, session.token),
        items === undefined ? 'done.full' : 'done.partial',
        () => setPendingForce({ items }),
      ),
    [act, session.token],
  );

  const confirmForce = useCallback(async (): Promise<boolean> => {
    if (pendingForce === undefined) return false;
    const { items } = pendingForce;
    setPendingForce(undefined);
    return act((id) => api.dispense(id, items, true, session.token), 'done.forced');
  }, [act, pendingForce, session.token]);

  return {
    decoded,
    result,
    busy,
    error,
    message,
    pendingForce,
    load,
    clear: () => {
      setDecoded({ state: 'none' });
      setResult(undefined);
      setError(undefined);
      setMessage(undefined);
      setPendingForce(undefined);
    },
    lock: (reason) => act((id) => api.lock(id, reason, session.token), 'done.lock'),
    unlock: (reason) => act((id) => api.unlock(id, reason, session.token), 'done.unlock'),
    dispense,
    confirmForce,
    abortForce: () => setPendingForce(undefined),
    cancel: (eventId) => act((id) => api.cancelEvent(id, eventId, session.token), 'done.cancel'),
  };
}
