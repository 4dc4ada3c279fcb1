/**
 * Lock or unlock with an optional reason (SPEC.md §5: the reason is recorded in the event). Shows
 * who holds the lock and until when (it lapses, SPEC.md §10); only the holder is offered
 * "Unlock", and a completed dispensation under one's own lock offers to release it.
 */
import { useState } from 'preact/hooks';
import { useI18n } from '../i18n/i18n-context.js';
import type { CounterState } from './counter-state.js';
import { Feedback } from './feedback.js';
import type { Feedback as Answer } from './use-counter.js';
import { formatUntil } from './until.js';

export function LockPanel(props: {
  state: CounterState;
  dispensed: boolean;
  busy: boolean;
  feedback: Answer | undefined;
  onLock(reason: string): Promise<boolean>;
  onUnlock(reason: string): Promise<boolean>;
}) {
  const { t, lang } = useI18n();
  const [reason, setReason] = useState('');
  const { lock, lockRefused, mayUnlock } = props.state;
  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    const ok = mayUnlock ? await props.onUnlock(reason) : await props.onLock(reason);
    if (ok) setReason('');
  };
  const until = lock?.until ? formatUntil(lang, lock.until) : undefined;
  // Locked by someone else: nothing to do here but know whom to call.
  const offered = mayUnlock || (lock === undefined && lockRefused === undefined);
  return (
    <form class="card lock-panel" onSubmit={(e) => void submit(e)} aria-labelledby="lock-title">
      <h2 id="lock-title">{t('counter.lockTitle')}</h2>
      {lock && (
        <p class="lock-holder" data-lock-holder={lock.holder} data-lock-mine={String(lock.mine)}>
          {lock.mine
            ? t(until ? 'counter.lock.mineUntil' : 'counter.lock.mine', { time: until ?? '' })
            : t(until ? 'counter.lock.otherUntil' : 'counter.lock.other', {
                holder: lock.holder,
                time: until ?? '',
              })}
        </p>
      )}
      {mayUnlock && props.dispensed && <p class="notice">{t('counter.lock.releaseDone')}</p>}
      {offered && (
        <div class="field">
          <label for="lock-reason">{t('counter.reason')}</label>
          <input
            id="lock-reason"
            maxLength={500}
            value={reason}
            onInput={(e) => setReason(e.currentTarget.value)}
          />
        </div>
      )}
      {mayUnlock ? (
        <button type="submit" class={props.dispensed ? 'primary' : undefined} disabled={props.busy}>
          {t('counter.unlock')}
        </button>
      ) : (
        <p class="action-with-reason">
          <button
            type="submit"
            disabled={props.busy || lockRefused !== undefined || lock !== undefined}
            aria-describedby={lockRefused ? 'lock-why' : undefined}
          >
            {t('counter.lock')}
          </button>
          {lockRefused && (
            <span id="lock-why" class="why">
              {t(lockRefused, { holder: lock?.holder ?? '' })}
            </span>
          )}
        </p>
      )}
      <Feedback place="lock" feedback={props.feedback} />
    </form>
  );
}
