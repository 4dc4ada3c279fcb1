/**
 * One line of the desk's list of issued prescriptions: its state in plain words, when it was
 * issued, the packs dispensed, what this browser remembers of it (the patient's initials and the
 * products) or that it was issued elsewhere, and what can be done with it; and the confirmation
 * before revoking from the list.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { ListedPrescription } from '../api/types.js';
import { MedicamentName } from '../components/product-names.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';
import type { Remembered } from './issued-memory.js';

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
export function RevokeDialog(props: { id: string; onYes(): void; onNo(): void }) {
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
        {/* The safe choice has the focus: Enter must not revoke by accident. */}
        <button type="button" onClick={props.onNo} autoFocus>
          {t('desk.revokeNo')}
        </button>
      </div>
    </dialog>
  );
}

/** What this browser remembers of a row: the patient's initials and the products. */
function Memory(props: { remembered: Remembered | undefined }) {
  const { t } = useI18n();
  const r = props.remembered;
  if (r === undefined) return <p class="muted small issued-unknown">{t('list.unknown')}</p>;
  return (
    <>
      <div>
        <dt>{t('list.patient')}</dt>
        <dd class="issued-initials">{r.initials}</dd>
      </div>
      <div>
        <dt>{t('list.products')}</dt>
        <dd>
          <ul class="issued-products">
            {r.meds.map((m, i) => (
              <li key={i}>
                <MedicamentName id={m.id} idType={m.idType} />
              </li>
            ))}
          </ul>
        </dd>
      </div>
    </>
  );
}

export function IssuedRow(props: {
  item: ListedPrescription;
  remembered: Remembered | undefined;
  busy: boolean;
  onShow(): void;
  onRevoke(): void;
  onForget(): void;
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
      data-remembered={props.remembered === undefined ? 'false' : 'true'}
    >
      <p class="issued-head" id={`${idRef}-head`} tabIndex={-1}>
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
        {props.remembered !== undefined && <Memory remembered={props.remembered} />}
      </dl>
      {props.remembered === undefined && <Memory remembered={undefined} />}
      <div class="actions">
        {props.remembered?.link !== undefined && !p.revoked && (
          <button type="button" aria-describedby={idRef} onClick={props.onShow}>
            {t('list.show')}
          </button>
        )}
        {/* Nothing is left to revoke of a fully dispensed prescription. */}
        {!p.revoked && !p.dispensed && (
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
        {props.remembered !== undefined && (
          <button
            type="button"
            class="small-button"
            aria-describedby={idRef}
            onClick={props.onForget}
          >
            {t('list.forget')}
          </button>
        )}
      </div>
    </li>
  );
}
