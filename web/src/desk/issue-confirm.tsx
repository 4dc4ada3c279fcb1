/**
 * Asks once before issuing what the plausibility checks found (`plausibility.ts`): doses above
 * {@link DOSE_LIMIT} at one time of day (a slipped `50` for `5`, or `0,5` read as `5`), a birth
 * date in the future, a GLN or GTIN whose check digit or length is wrong, "take until" in the
 * past. Every finding is listed; "create" confirms them all, "correct" moves focus to the first.
 */
import { useRef } from 'preact/hooks';
import { ModalDialog } from '../components/modal-dialog.js';
import { useI18n } from '../i18n/i18n-context.js';
import { labelFor } from './field-labels.js';
import { DOSE_LIMIT } from './plausibility.js';
import type { HighDose, ToConfirm } from './plausibility.js';
import { controlId } from './violations.js';

const SLOTS = ['med.morning', 'med.noon', 'med.evening', 'med.night'] as const;

/** What the prescriber confirms before issuing. */
export interface Findings {
  doses: readonly HighDose[];
  others: readonly ToConfirm[];
}

/** True when there is something to confirm. */
export function hasFindings(f: Findings): boolean {
  return f.doses.length > 0 || f.others.length > 0;
}

function dosePointer(d: HighDose): string {
  return `/Medicaments/${d.index}/Pos/0/D/${d.slot}`;
}

export function IssueConfirm(props: { findings: Findings; onConfirm(): void; onCancel(): void }) {
  const { t } = useI18n();
  // A ref, not state: the dialog closes in the same render that would show the state.
  const correcting = useRef(false);
  const { doses, others } = props.findings;
  // The form's order: the patient, the prescriber, then the medicaments; doses last of these.
  const first = others[0]?.pointer ?? (doses[0] && dosePointer(doses[0]));
  const onlyDoses = others.length === 0;
  const correct = (): void => {
    correcting.current = true;
    props.onCancel();
  };
  return (
    <ModalDialog
      role="alertdialog"
      labelledBy="issue-confirm-title"
      describedBy="issue-confirm-text"
      class="issue-confirm"
      onCancel={correct}
      focusAfter={() =>
        correcting.current && first !== undefined ? document.getElementById(controlId(first)) : null
      }
    >
      <h2 id="issue-confirm-title">{t(onlyDoses ? 'dose.title' : 'confirm.title')}</h2>
      <p id="issue-confirm-text">
        {onlyDoses ? t('dose.text', { limit: DOSE_LIMIT }) : t('confirm.text')}
      </p>
      <ul>
        {others.map((o) => (
          <li key={`${o.pointer}-${o.warning.key}`} data-pointer={o.pointer}>
            {labelFor(o.pointer, t)}
            {t('list.colon')}
            {t(o.warning.key, o.warning.params)}
          </li>
        ))}
        {doses.map((d) => (
          <li key={dosePointer(d)} data-pointer={dosePointer(d)}>
            {t('dose.item', {
              med: t('desk.med', { n: d.index + 1 }),
              slot: t(SLOTS[d.slot] ?? 'med.morning'),
              // As typed: `12,5` stays `12,5` (de-CH would format the number as `12.5`).
              dose: d.text,
              unit: d.unit,
            })}
          </li>
        ))}
      </ul>
      <div class="actions">
        <button type="button" class="primary" onClick={props.onConfirm}>
          {t('dose.yes')}
        </button>
        <button type="button" onClick={correct} autoFocus>
          {t(onlyDoses ? 'dose.no' : 'confirm.no')}
        </button>
      </div>
    </ModalDialog>
  );
}
