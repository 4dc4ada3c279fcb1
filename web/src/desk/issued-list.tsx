/**
 * The practice's earlier prescriptions (`GET /ePrescription/prescriptions`): one line each with
 * its state in plain words, a filter by state, and revocation after a confirmation. The list holds
 * no link (the service keeps none), so a QR code is shown only for a prescription created on this
 * page, and never for a revoked one.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { listIssued } from '../api/prescription-list.js';
import * as api from '../api/prescriptions.js';
import type { ListState, ListedPrescription } from '../api/types.js';
import { errorMessage } from '../components/error-message.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';

const STATES: readonly (ListState | 'all')[] = ['all', 'open', 'dispensed', 'revoked', 'expired'];

type Headline = 'invalid' | 'revoked' | 'dispensed' | 'expired' | 'open';

/** The one state that matters most to the practice. */
function headline(p: ListedPrescription): Headline {
  if (!p.valid) return 'invalid';
  if (p.revoked) return 'revoked';
  if (p.dispensed) return 'dispensed';
  if (p.expired) return 'expired';
  return 'open';
}

const HEADLINE_KEYS: Readonly<Record<Headline, MessageKey>> = {
  invalid: 'list.headline.invalid',
  revoked: 'list.headline.revoked',
  dispensed: 'list.headline.dispensed',
  expired: 'list.headline.expired',
  open: 'list.headline.open',
};

/** A confirmation as a real modal dialog: focus moves in, and back to the button afterwards. */
function RevokeDialog(props: { id: string; onYes(): void; onNo(): void }) {
  const { t } = useI18n();
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const before = document.activeElement;
    const element = dialog.current;
    if (element && !element.open) element.showModal();
    return () => {
      element?.close();
      if (before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);
  return (
    <dialog
      ref={dialog}
      class="modal issued-confirm"
      role="alertdialog"
      aria-labelledby="issued-revoke-title"
      aria-describedby="issued-revoke-text"
      onCancel={(event) => {
        event.preventDefault();
        props.onNo();
      }}
    >
      <h2 id="issued-revoke-title">{t('list.revokeTitle', { id: props.id })}</h2>
      <p id="issued-revoke-text">{t('desk.revokeConfirm')}</p>
      <div class="actions">
        <button type="button" class="danger" onClick={props.onYes}>
          {t('desk.revokeYes')}
        </button>
        <button type="button" onClick={props.onNo}>
          {t('desk.revokeNo')}
        </button>
      </div>
    </dialog>
  );
}

function Line(props: {
  item: ListedPrescription;
  showable: boolean;
  busy: boolean;
  onShow(): void;
  onRevoke(): void;
}) {
  const { t, dateTime } = useI18n();
  const p = props.item;
  const state = headline(p);
  const done = p.medicaments.reduce((sum, m) => sum + m.dispensed, 0);
  const total = p.medicaments.reduce((sum, m) => sum + m.prescribed, 0);
  const idRef = `issued-${p.prescription_id}`;
  return (
    <li
      class={`issued-item issued-${state}`}
      data-prescription-id={p.prescription_id}
      data-list-state={state}
    >
      <p class="issued-head">
        <code id={idRef}>{p.prescription_id}</code>
        <strong class={`issued-state issued-state-${state}`}>{t(HEADLINE_KEYS[state])}</strong>
        {p.locked && p.locked_by !== undefined && (
          <span class="muted">{t('list.lockedBy', { name: p.locked_by })}</span>
        )}
      </p>
      <dl class="issued-facts">
        <div>
          <dt>{t('list.issued')}</dt>
          <dd>{dateTime(p.issued_at)}</dd>
        </div>
        <div>
          <dt>{t('list.packs')}</dt>
          <dd>{t('list.packsOf', { done, total })}</dd>
        </div>
      </dl>
      <div class="actions">
        {props.showable && (
          <button type="button" aria-describedby={idRef} onClick={props.onShow}>
            {t('list.show')}
          </button>
        )}
        {!p.revoked && (
          <button
            type="button"
            class="danger"
            aria-describedby={idRef}
            disabled={props.busy}
            onClick={props.onRevoke}
          >
            {t('list.revoke')}
          </button>
        )}
      </div>
    </li>
  );
}

export function IssuedList(props: {
  token: Parameters<typeof api.revoke>[1];
  /** Changes whenever the desk created or revoked one: the list is read again. */
  version: number;
  /** Ids whose link this page holds, so their QR code can be shown again. */
  known: ReadonlySet<string>;
  onShow(id: string, revoked: boolean): void;
  onRevoked(id: string): void;
}) {
  const { t } = useI18n();
  const [state, setState] = useState<ListState | 'all'>('all');
  const [items, setItems] = useState<readonly ListedPrescription[]>([]);
  const [next, setNext] = useState<string | undefined>(undefined);
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState('');
  const [asking, setAsking] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const [reads, setReads] = useState(0);

  const load = async (after: string | undefined, live: () => boolean): Promise<void> => {
    setLoading(true);
    setError(undefined);
    try {
      const page = await listIssued(props.token, {
        state: state === 'all' ? undefined : state,
        after,
      });
      if (!live()) return;
      setItems((shown) =>
        after === undefined ? page.prescriptions : [...shown, ...page.prescriptions],
      );
      setNext(page.next);
    } catch (failure) {
      if (live()) setError(errorMessage(failure, t));
    } finally {
      if (live()) setLoading(false);
    }
  };

  useEffect(() => {
    let live = true;
    void load(undefined, () => live);
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
      props.onRevoked(id);
    } catch (failure) {
      setError(errorMessage(failure, t));
    } finally {
      setBusy(false);
    }
  };

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
      {!loading && items.length === 0 && !error && <p class="muted">{t('list.empty')}</p>}
      <ul class="issued-list">
        {items.map((p) => (
          <Line
            key={p.prescription_id}
            item={p}
            showable={props.known.has(p.prescription_id)}
            busy={busy}
            onShow={() => props.onShow(p.prescription_id, p.revoked)}
            onRevoke={() => setAsking(p.prescription_id)}
          />
        ))}
      </ul>
      {next !== undefined && (
        <button type="button" disabled={loading} onClick={() => void load(next, () => true)}>
          {t('list.more')}
        </button>
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
