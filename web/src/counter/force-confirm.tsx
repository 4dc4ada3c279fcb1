/**
 * The explicit confirmation before a forced dispensation (seed §3, SPEC.md §10): it names each
 * rule of the prescription the dispensation overrides (already dispensed, expired, substitution,
 * quantity) and asks why; the reason is recorded, signed, with the event.
 */
import { useState } from 'preact/hooks';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';
import type { OverrideRule } from './counter-state.js';
import { Modal } from './modal.js';

/** The name of each rule force overrides. */
export const RULE_KEYS: Readonly<Record<OverrideRule, MessageKey>> = {
  already_dispensed: 'counter.rule.already_dispensed',
  expired: 'counter.rule.expired',
  substitution_not_allowed: 'counter.rule.substitution_not_allowed',
  quantity_exceeded: 'counter.rule.quantity_exceeded',
};

export function ForceConfirm(props: {
  rules: readonly OverrideRule[];
  busy: boolean;
  onConfirm(reason: string): void;
  onAbort(): void;
}) {
  const { t } = useI18n();
  const [reason, setReason] = useState('');
  const ready = reason.trim() !== '';
  return (
    <Modal
      labelledBy="force-title"
      describedBy="force-text"
      role="alertdialog"
      onClose={props.onAbort}
    >
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault();
          if (ready) props.onConfirm(reason.trim());
        }}
      >
        <h2 id="force-title">{t('counter.force.title')}</h2>
        <div id="force-text">
          <p>{t('counter.force.overrides')}</p>
          <ul class="force-rules">
            {props.rules.map((rule) => (
              <li key={rule} data-rule={rule}>
                {t(RULE_KEYS[rule])}
              </li>
            ))}
          </ul>
        </div>
        <div class="field">
          <label for="force-reason">{t('counter.force.reason')}</label>
          <input
            id="force-reason"
            required
            maxLength={500}
            value={reason}
            onInput={(e) => setReason(e.currentTarget.value)}
          />
        </div>
        <div class="actions">
          <button type="submit" class="danger" disabled={props.busy || !ready}>
            {t('counter.forceConfirm')}
          </button>
          <button type="button" disabled={props.busy} onClick={props.onAbort}>
            {t('counter.forceAbort')}
          </button>
        </div>
      </form>
    </Modal>
  );
}
