/**
 * The state of the pharmacy counter: the current link, its decoded document, the verify answer
 * with transactions, and the actions on it. Every action re-verifies afterwards, so the screen
 * always shows the service's own state rather than a guess; what an action answered is kept with
 * the place it was asked from, so the page shows it next to the button pressed.
 */
import { useCallback, useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api/http.js';
import * as api from '../api/prescriptions.js';
import type { Session } from '../api/session.js';
import type { DispenseItem, VerifyResult } from '../api/types.js';
import { errorMessage } from '../components/error-message.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';
import { decodeDocument } from '../chmed/decode.js';
import { decodeLink } from '../chmed/decode-link.js';
import type { DecodedLink } from '../chmed/decode-link.js';
import type { DocumentView } from '../chmed/document-view.js';
import { viewOf } from '../chmed/view-of.js';
import { counterState, itemOverrides, refusedRule } from './counter-state.js';
import type { OverrideRule } from './counter-state.js';

/** A dispensation that overrides a rule of the prescription, waiting for confirmation. */
export interface PendingForce {
  items: DispenseItem[] | undefined;
  /** The rules it overrides (SPEC.md §10), named in the dialog. */
  rules: readonly OverrideRule[];
}

/** Where an action was asked from: its answer is shown there. */
export type Place = 'link' | 'lock' | 'dispense' | 'timeline';

/** What the last action answered, and where. `seq` changes with every answer. */
export interface Feedback {
  place: Place;
  kind: 'ok' | 'error';
  text: string;
  seq: number;
}

export interface Counter {
  decoded: DecodedLink;
  /** A bare `CHMED16A…` document pasted without its link: readable, not verifiable. */
  bare: DocumentView | undefined;
  result: VerifyResult | undefined;
  /** Changes with every verify of a new link (focus moves to its result). */
  loaded: number;
  busy: boolean;
  feedback: Feedback | undefined;
  pendingForce: PendingForce | undefined;
  load(link: string): Promise<void>;
  clear(): void;
  lock(reason: string): Promise<boolean>;
  unlock(reason: string): Promise<boolean>;
  dispense(items: DispenseItem[] | undefined): Promise<boolean>;
  /**
   * HIN's closing step (SPEC.md §5): the full dispensation without force that closes a
   * prescription partial dispensations have covered; it hands out nothing more.
   */
  close(): Promise<boolean>;
  /** Asks to dispense with force (the state alone overrides a rule). */
  askForce(items: DispenseItem[] | undefined): void;
  confirmForce(reason: string): Promise<boolean>;
  abortForce(): void;
  cancel(eventId: string): Promise<boolean>;
  /** Clears the last answer: a new question or action makes it stale. */
  quiet(): void;
}

/** The longest a timer may wait (setTimeout's limit, about 24.8 days). */
const MAX_DELAY_MS = 2 ** 31 - 1;
/** A lapsed lock is asked for a moment after its end, so the service has let it go. */
const LAPSE_GRACE_MS = 1_000;

// A document pasted on its own: the prefix of SPEC.md §3 with no address before it.
const BARE_DOCUMENT = /^(?:chmed16a[01]|chmed23)/i;

export function useCounter(session: Session, onUnauthorized: () => void): Counter {
  const { t } = useI18n();
  const [decoded, setDecoded] = useState<DecodedLink>({ state: 'none' });
  const [bare, setBare] = useState<DocumentView | undefined>(undefined);
  const [result, setResult] = useState<VerifyResult | undefined>(undefined);
  const [loaded, setLoaded] = useState(0);
  const [busy, setBusy] = useState(false);
  const [feedback, setFeedbackState] = useState<Feedback | undefined>(undefined);
  const [pendingForce, setPendingForce] = useState<PendingForce | undefined>(undefined);

  const say = useCallback(
    (place: Place, kind: Feedback['kind'], text: string) =>
      setFeedbackState((last) => ({ place, kind, text, seq: (last?.seq ?? 0) + 1 })),
    [],
  );

  const fail = useCallback(
    (place: Place, failure: unknown) => {
      if (failure instanceof ApiError && failure.status === 401) onUnauthorized();
      say(place, 'error', errorMessage(failure, t));
    },
    [onUnauthorized, say, t],
  );

  const refresh = useCallback(
    async (link: string) => {
      setResult(await api.verify(link, session.token));
    },
    [session.token],
  );

  // A bare document is decoded for reading; without the signed link the service cannot verify it.
  const loadBare = useCallback(async (text: string): Promise<boolean> => {
    const chmed = text.trim().split('&')[0] ?? '';
    try {
      setBare(viewOf(await decodeDocument(chmed)));
      return true;
    } catch {
      return false;
    }
  }, []);

  const load = useCallback(
    async (link: string) => {
      setBusy(true);
      setFeedbackState(undefined);
      setPendingForce(undefined);
      setResult(undefined);
      setBare(undefined);
      const next = await decodeLink(link);
      setDecoded(next);
      // Another service's link (SPEC.md §3): shown from the link alone, never sent to verify.
      if (next.state === 'foreign') {
        say('link', 'error', t('counter.foreign.text'));
        setBusy(false);
        return;
      }
      if (next.state !== 'ok') {
        const readable = BARE_DOCUMENT.test(link.trim()) && (await loadBare(link));
        say('link', 'error', t(readable ? 'counter.bare.unverifiable' : 'counter.notLink'));
        setBusy(false);
        return;
      }
      try {
        await refresh(next.link);
        say('link', 'ok', t('done.verified'));
        setLoaded((n) => n + 1);
      } catch (failure) {
        fail('link', failure);
      } finally {
        setBusy(false);
      }
    },
    [fail, loadBare, refresh, say, t],
  );

  // Runs one mutating call, then re-verifies; true when the call was accepted.
  const act = useCallback(
    async (
      place: Place,
      call: (id: string) => Promise<unknown>,
      done: MessageKey,
      onRefusedRule?: (rule: OverrideRule) => void,
    ): Promise<boolean> => {
      if (decoded.state !== 'ok' || result === undefined) return false;
      setBusy(true);
      setFeedbackState(undefined);
      try {
        await call(result.prescription_id);
        await refresh(decoded.link);
        say(place, 'ok', t(done));
        return true;
      } catch (failure) {
        const rule =
          failure instanceof ApiError
            ? refusedRule(failure.status, failure.body?.cause?.Code)
            : undefined;
        if (onRefusedRule !== undefined && rule !== undefined) onRefusedRule(rule);
        else fail(place, failure);
        // The refusal may come from a state changed elsewhere: show the service's state now. Not
        // after a declined sign-in: the verify would be refused too and ask to sign in again.
        const declined = failure instanceof ApiError && failure.status === 401;
        if (!declined) await refresh(decoded.link).catch(() => undefined);
        return false;
      } finally {
        setBusy(false);
      }
    },
    [decoded, result, refresh, fail, say, t],
  );

  // The shown lock lapses by itself (SPEC.md §10): verify again once it has, so the page does not
  // keep offering what the lapse changed until someone presses "Verify".
  const lockUntil = result && counterState(result, session.sub).lock?.until;
  useEffect(() => {
    if (lockUntil === undefined || decoded.state !== 'ok') return undefined;
    const delay = new Date(lockUntil).getTime() - Date.now() + LAPSE_GRACE_MS;
    if (Number.isNaN(delay)) return undefined;
    const link = decoded.link;
    const timer = setTimeout(
      () => void refresh(link).catch(() => undefined),
      Math.min(Math.max(delay, 0), MAX_DELAY_MS),
    );
    return () => clearTimeout(timer);
  }, [lockUntil, decoded, refresh]);

  const askForce = useCallback(
    (items: DispenseItem[] | undefined, extra: readonly OverrideRule[] = []) => {
      if (result === undefined) return;
      const rules = new Set([...itemOverrides(result, items), ...extra]);
      setFeedbackState(undefined);
      setPendingForce({ items, rules: [...rules] });
    },
    [result],
  );

  const dispense = useCallback(
    async (items: DispenseItem[] | undefined): Promise<boolean> => {
      if (result === undefined) return false;
      // What the page already knows the service would refuse goes to the force dialog first.
      if (itemOverrides(result, items).length > 0) {
        askForce(items);
        return false;
      }
      return act(
        'dispense',
        (id) => api.dispense(id, items, false, undefined, session.token),
        items === undefined ? 'done.full' : 'done.partial',
        (rule) => askForce(items, [rule]),
      );
    },
    [act, askForce, result, session.token],
  );

  const close = useCallback(
    (): Promise<boolean> =>
      act(
        'dispense',
        (id) => api.dispense(id, undefined, false, undefined, session.token),
        'done.close',
      ),
    [act, session.token],
  );

  const confirmForce = useCallback(
    async (reason: string): Promise<boolean> => {
      if (pendingForce === undefined) return false;
      const { items } = pendingForce;
      setPendingForce(undefined);
      return act(
        'dispense',
        (id) => api.dispense(id, items, true, reason, session.token),
        'done.forced',
      );
    },
    [act, pendingForce, session.token],
  );

  return {
    decoded,
    bare,
    result,
    loaded,
    busy,
    feedback,
    pendingForce,
    load,
    clear: () => {
      setDecoded({ state: 'none' });
      setBare(undefined);
      setResult(undefined);
      setFeedbackState(undefined);
      setPendingForce(undefined);
    },
    lock: (reason) => act('lock', (id) => api.lock(id, reason, session.token), 'done.lock'),
    unlock: (reason) => act('lock', (id) => api.unlock(id, reason, session.token), 'done.unlock'),
    dispense,
    close,
    askForce: (items) => askForce(items),
    confirmForce,
    abortForce: () => {
      setFeedbackState(undefined);
      setPendingForce(undefined);
    },
    cancel: (eventId) =>
      act('timeline', (id) => api.cancelEvent(id, eventId, session.token), 'done.cancel'),
    quiet: () => setFeedbackState(undefined),
  };
}
