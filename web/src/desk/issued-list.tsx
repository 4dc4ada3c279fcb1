/**
 * The prescriber's earlier prescriptions (`GET /ePrescription/prescriptions`), newest first: one
 * line each with its state in plain words, the patient's initials and the products as this
 * browser remembers them (`issued-memory.ts`; the service keeps no patient data), a filter by
 * state, and revocation after a confirmation. A QR code is shown again only from a link this
 * browser remembers, and never for a revoked prescription.
 */
import { useEffect, useState } from 'preact/hooks';
import { listIssued } from '../api/prescription-list.js';
import * as api from '../api/prescriptions.js';
import type { ListState, ListedPrescription } from '../api/types.js';
import { errorMessage } from '../components/error-message.js';
import { ProductNames } from '../components/product-names.js';
import { useI18n } from '../i18n/i18n-context.js';
import { MEMORY_DAYS } from './issued-memory.js';
import type { Remembered } from './issued-memory.js';
import { IssuedRow, RevokeDialog } from './issued-row.js';

/** Rows shown at first and added by "show more". */
const SHOWN = 20;

/**
 * The service lists in id order, so the desk reads every page (of the largest size) and sorts by
 * the issue date; at most this many pages, so a very long history cannot stall the desk.
 */
const PAGE = 100;
const MAX_PAGES = 20;

/** A listed prescription to show again, with what decides what the panel offers. */
export interface Shown {
  id: string;
  revoked: boolean;
  dispensed: boolean;
}

/** Newest first (the issue date, then the id for a stable order). */
function newestFirst(a: ListedPrescription, b: ListedPrescription): number {
  const byDate = Date.parse(b.issued_at) - Date.parse(a.issued_at);
  return byDate !== 0 ? byDate : a.prescription_id.localeCompare(b.prescription_id);
}

const STATES: readonly (ListState | 'all')[] = ['all', 'open', 'dispensed', 'revoked', 'expired'];

export function IssuedList(props: {
  token: Parameters<typeof api.revoke>[1];
  /** Changes whenever the desk created or revoked one: the list is read again. */
  version: number;
  /** What this browser remembers of the prescriptions it issued, newest first. */
  remembered: readonly Remembered[];
  onShow(shown: Shown): void;
  onRevoked(id: string): void;
  /** A remembered prescription with a link is listed revoked, fully dispensed or expired. */
  onClosed(id: string): void;
  onForget(id: string): void;
}) {
  const { t } = useI18n();
  const [state, setState] = useState<ListState | 'all'>('all');
  const [items, setItems] = useState<readonly ListedPrescription[]>([]);
  const [shown, setShown] = useState(SHOWN);
  const [capped, setCapped] = useState(false);
  const [loading, setLoading] = useState(false);
  const [focusRow, setFocusRow] = useState<string | undefined>(undefined);
  const memory = new Map(props.remembered.map((r) => [r.id, r]));
  // A row revoked from the list loses its button: focus goes to the row's heading line.
  useEffect(() => {
    if (focusRow === undefined) return;
    setFocusRow(undefined);
    document.getElementById(`issued-${focusRow}-head`)?.focus();
  }, [focusRow]);
  const [error, setError] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState('');
  const [asking, setAsking] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [reads, setReads] = useState(0);

  const load = async (live: () => boolean): Promise<void> => {
    setLoading(true);
    setError(undefined);
    try {
      const all: ListedPrescription[] = [];
      let after: string | undefined;
      let pages = 0;
      do {
        const page = await listIssued(props.token, {
          state: state === 'all' ? undefined : state,
          after,
          limit: PAGE,
        });
        if (!live()) return;
        all.push(...page.prescriptions);
        after = page.next;
        pages += 1;
      } while (after !== undefined && pages < MAX_PAGES);
      setItems(all.sort(newestFirst));
      setCapped(after !== undefined);
      for (const p of all) {
        const open = !p.revoked && !p.dispensed && !p.expired;
        if (!open && memory.get(p.prescription_id)?.link !== undefined) {
          props.onClosed(p.prescription_id);
        }
      }
    } catch (failure) {
      if (live()) setError(errorMessage(failure, t));
    } finally {
      if (live()) setLoading(false);
    }
  };

  useEffect(() => {
    let live = true;
    setShown(SHOWN);
    void load(() => live);
    return () => {
      live = false;
    };
    // The token is renewed in place; reading again on each renewal would lose the page.
  }, [state, props.version, reads]);

  const revoke = async (id: string): Promise<void> => {
    setAsking(undefined);
    setBusy(true);
    setError(undefined);
    setMessage('');
    try {
      await api.revoke(id, props.token);
      setItems((shown) =>
        shown.map((p) => (p.prescription_id === id ? { ...p, revoked: true, locked: false } : p)),
      );
      setMessage(t('done.revoke'));
      setFocusRow(id);
      props.onRevoked(id);
      props.onClosed(id);
    } catch (failure) {
      setError(errorMessage(failure, t));
    } finally {
      setBusy(false);
    }
  };

  const visible = items.slice(0, shown);
  return (
    <section class="card issued no-print" aria-labelledby="issued-title">
      <h2 id="issued-title">{t('list.title')}</h2>
      <div class="issued-tools">
        <div class="field">
          <label for="issued-state">{t('list.state')}</label>
          <select
            id="issued-state"
            value={state}
            onChange={(e) => setState(e.currentTarget.value as ListState | 'all')}
          >
            {STATES.map((s) => (
              <option key={s} value={s}>
                {t(`list.state.${s}`)}
              </option>
            ))}
          </select>
        </div>
        <button type="button" onClick={() => setReads((n) => n + 1)} disabled={loading}>
          {t('list.refresh')}
        </button>
      </div>
      <p class="live" role="status" aria-live="polite">
        {loading ? t('list.loading') : message}
      </p>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <p class="muted small">{t('list.memory', { days: MEMORY_DAYS })}</p>
      {!loading && items.length === 0 && !error && <p class="muted">{t('list.empty')}</p>}
      <ProductNames medicaments={visible.flatMap((p) => memory.get(p.prescription_id)?.meds ?? [])}>
        <ul class="issued-list">
          {visible.map((p) => (
            <IssuedRow
              key={p.prescription_id}
              item={p}
              remembered={memory.get(p.prescription_id)}
              busy={busy}
              onShow={() =>
                props.onShow({ id: p.prescription_id, revoked: p.revoked, dispensed: p.dispensed })
              }
              onRevoke={() => setAsking(p.prescription_id)}
              onForget={() => {
                props.onForget(p.prescription_id);
                setMessage(t('list.forgotten'));
                setFocusRow(p.prescription_id);
              }}
            />
          ))}
        </ul>
      </ProductNames>
      {shown < items.length && (
        <button type="button" onClick={() => setShown((n) => n + SHOWN)}>
          {t('list.more')}
        </button>
      )}
      {capped && shown >= items.length && (
        <p class="muted small">{t('list.capped', { n: items.length })}</p>
      )}
      {asking !== undefined && (
        <RevokeDialog
          id={asking}
          onYes={() => void revoke(asking)}
          onNo={() => setAsking(undefined)}
        />
      )}
    </section>
  );
}
