/**
 * A started draft is not lost without a word: leaving the page (reload, closing the tab) asks
 * through the browser's own prompt, and signing out asks in a dialog. The draft itself is never
 * stored (docs/decisions.md, "The staff session across expiry and reload").
 */
import { useEffect } from 'preact/hooks';
import { ModalDialog } from '../components/modal-dialog.js';
import { useI18n } from '../i18n/i18n-context.js';

/** While `active`, leaving the page asks first (the browser words the question). */
export function useLeaveWarning(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const ask = (event: BeforeUnloadEvent): void => {
      event.preventDefault();
      // Older browsers ask only when a return value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [active]);
}

/** Asks before signing out with a started draft; staying keeps every entry. */
export function LeaveDraft(props: { onLeave(): void; onStay(): void }) {
  const { t } = useI18n();
  return (
    <ModalDialog
      role="alertdialog"
      labelledBy="leave-draft-title"
      describedBy="leave-draft-text"
      onCancel={props.onStay}
    >
      <h2 id="leave-draft-title">{t('draft.leaveTitle')}</h2>
      <p id="leave-draft-text">{t('draft.leaveText')}</p>
      <div class="actions">
        <button type="button" class="danger" onClick={props.onLeave}>
          {t('draft.leaveYes')}
        </button>
        <button type="button" onClick={props.onStay} autoFocus>
          {t('draft.leaveNo')}
        </button>
      </div>
    </ModalDialog>
  );
}
