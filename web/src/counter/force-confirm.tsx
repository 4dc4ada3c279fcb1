/**
 * The explicit confirmation before a forced dispensation (seed §3, §4.1 rule 6): shown when the
 * service refused with 403 because the prescription is already fully dispensed.
 */
import { useEffect, useRef } from 'preact/hooks';
import { useI18n } from '../i18n/i18n-context.js';

export function ForceConfirm(props: { busy: boolean; onConfirm(): void; onAbort(): void }) {
  const { t } = useI18n();
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus moves to the question so keyboard and screen-reader users meet it first.
  useEffect(() => heading.current?.focus(), []);
  return (
    <section
      class="card confirm"
      role="alertdialog"
      aria-labelledby="force-title"
      aria-describedby="force-text"
    >
      <h2 id="force-title" tabIndex={-1} ref={heading}>
        {t('counter.forceTitle')}
      </h2>
      <p id="force-text">{t('counter.forceText')}</p>
      <div class="actions">
        <button type="button" class="danger" disabled={props.busy} onClick={props.onConfirm}>
          {t('counter.forceConfirm')}
        </button>
        <button type="button" disabled={props.busy} onClick={props.onAbort}>
          {t('counter.forceAbort')}
        </button>
      </div>
    </section>
  );
}
