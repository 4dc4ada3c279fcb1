/**
 * Asks before issuing doses above {@link DOSE_LIMIT} at one time of day (a slipped `50` for `5`,
 * or `0,5` read as `5`): the doses listed; "correct" moves focus to the first of them.
 */
import { useRef } from 'preact/hooks';
import { ModalDialog } from '../components/modal-dialog.js';
import { useI18n } from '../i18n/i18n-context.js';
import { DOSE_LIMIT } from './plausibility.js';
import type { HighDose } from './plausibility.js';
import { controlId } from './violations.js';

const SLOTS = ['med.morning', 'med.noon', 'med.evening', 'med.night'] as const;

export function DoseConfirm(props: {
  doses: readonly HighDose[];
  onConfirm(): void;
  onCancel(): void;
}) {
  const { t, number } = useI18n();
  // A ref, not state: the dialog closes in the same render that would show the state.
  const correcting = useRef(false);
  const first = props.doses[0];
  const correct = (): void => {
    correcting.current = true;
    props.onCancel();
  };
  return (
    <ModalDialog
      role="alertdialog"
      labelledBy="dose-confirm-title"
      describedBy="dose-confirm-text"
      onCancel={correct}
      focusAfter={() =>
        correcting.current && first
          ? document.getElementById(controlId(`/Medicaments/${first.index}/Pos/0/D/${first.slot}`))
          : null
      }
    >
      <h2 id="dose-confirm-title">{t('dose.title')}</h2>
      <p id="dose-confirm-text">{t('dose.text', { limit: DOSE_LIMIT })}</p>
      <ul>
        {props.doses.map((d) => (
          <li key={`${d.index}-${d.slot}`}>
            {t('dose.item', {
              med: t('desk.med', { n: d.index + 1 }),
              slot: t(SLOTS[d.slot] ?? 'med.morning'),
              dose: number(d.dose),
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
          {t('dose.no')}
        </button>
      </div>
    </ModalDialog>
  );
}
