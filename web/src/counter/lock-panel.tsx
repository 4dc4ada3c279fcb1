/** Lock or unlock with an optional reason (SPEC.md §5: the reason is recorded in the event). */
import { useState } from 'preact/hooks';
import { useI18n } from '../i18n/i18n-context.js';

export function LockPanel(props: {
  locked: boolean;
  busy: boolean;
  onLock(reason: string): Promise<boolean>;
  onUnlock(reason: string): Promise<boolean>;
}) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const ok = props.locked ? await props.onUnlock(reason) : await props.onLock(reason);
    if (ok) setReason('');
  };
  return (
    <form class="card lock-panel" onSubmit={(e) => void submit(e)} aria-labelledby="lock-title">
      <h2 id="lock-title">{t('counter.lockTitle')}</h2>
      <div class="field">
        <label for="lock-reason">{t('counter.reason')}</label>
        <input
          id="lock-reason"
          maxLength={500}
          value={reason}
          onInput={(e) => setReason(e.currentTarget.value)}
        />
      </div>
      <button type="submit" disabled={props.busy}>
        {props.locked ? t('counter.unlock') : t('counter.lock')}
      </button>
    </form>
  );
}
