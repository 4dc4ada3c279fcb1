/**
 * The explicit confirmation before a forced dispensation (seed §3, SPEC.md §10): it names each
 * rule of the prescription the dispensation overrides (already dispensed, expired, substitution,
 * quantity) and asks why; the reason is recorded, signed, with the event.
 */
import { useState } from 'preact/hooks';
import type { DispenseItem } from '../api/types.js';
import { MedicamentName } from '../components/product-names.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';
import type { OverrideRule } from './counter-state.js';
import { Modal } from './modal.js';
import type { StoredMedicament } from './stored-medicaments.js';

/** A medicament the dispensation concerns: how many packs it asks for, how many remain. */
interface Concerned {
  med: StoredMedicament;
  asked: number;
}

/** The medicaments `items` concerns (all of them for a full dispensation: the rest of each). */
function concerned(
  medicaments: readonly StoredMedicament[],
  items: readonly DispenseItem[] | undefined,
): Concerned[] {
  if (items === undefined) return medicaments.map((med) => ({ med, asked: med.remaining }));
  const asked = new Map<string, number>();
  for (const item of items) asked.set(item.id, (asked.get(item.id) ?? 0) + item.amount);
  return medicaments.flatMap((med) => {
    const amount = asked.get(med.id);
    if (amount === undefined) return [];
    asked.delete(med.id);
    return [{ med, asked: amount }];
  });
}

/** The name of each rule force overrides. */
export const RULE_KEYS: Readonly<Record<OverrideRule, MessageKey>> = {
  already_dispensed: 'counter.rule.already_dispensed',
  expired: 'counter.rule.expired',
  substitution_not_allowed: 'counter.rule.substitution_not_allowed',
  quantity_exceeded: 'counter.rule.quantity_exceeded',
};

export function ForceConfirm(props: {
  rules: readonly OverrideRule[];
  /** What it dispenses: undefined for the rest of every medicament. */
  items: readonly DispenseItem[] | undefined;
  medicaments: readonly StoredMedicament[];
  busy: boolean;
  onConfirm(reason: string): void;
  onAbort(): void;
}) {
  const { t, number } = useI18n();
  const [reason, setReason] = useState('');
  const lines = concerned(props.medicaments, props.items);
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
          {lines.length > 0 && (
            <>
              <p>{t('counter.force.concerned')}</p>
              <ul class="force-items">
                {lines.map(({ med, asked }, i) => (
                  <li key={`${i}-${med.id}`} data-medicament-id={med.id} data-asked={asked}>
                    <MedicamentName id={med.id} idType={med.idType} />
                    {': '}
                    {t('counter.force.item', {
                      asked: number(asked),
                      remaining: number(med.remaining),
                      total: number(med.prescribed),
                    })}
                  </li>
                ))}
              </ul>
            </>
          )}
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
