/**
 * Dispensing at the counter: per prescribed medicament the packs dispensed so far against
 * `NbPack`, the packs to dispense now and an optional substitute with its id type (seed §2.2);
 * then a partial dispensation of what was entered, or a full one.
 */
import { useState } from 'preact/hooks';
import type { DispenseItem, VerifyResult } from '../api/types.js';
import type { MedicamentView } from '../chmed/document-view.js';
import { medicamentLabel } from '../components/medicament-label.js';
import { useI18n } from '../i18n/i18n-context.js';
import { dispensedAmounts } from './dispensed-amounts.js';

interface Line {
  amount: string;
  useSubstitute: boolean;
  substitute: string;
  substituteType: string;
}

const EMPTY: Line = { amount: '', useSubstitute: false, substitute: '', substituteType: '2' };

export function DispensePanel(props: {
  medicaments: readonly MedicamentView[];
  result: VerifyResult;
  busy: boolean;
  onDispense(items: DispenseItem[] | undefined): Promise<boolean>;
}) {
  const { t, number } = useI18n();
  const [lines, setLines] = useState<readonly Line[]>(() => props.medicaments.map(() => EMPTY));
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const done = dispensedAmounts(props.result);

  const update = (index: number, change: Partial<Line>): void =>
    setLines((current) => current.map((line, i) => (i === index ? { ...line, ...change } : line)));

  const items = (): DispenseItem[] | string => {
    const out: DispenseItem[] = [];
    for (const [i, line] of lines.entries()) {
      const med = props.medicaments[i];
      const amount = Number(line.amount);
      if (med === undefined || line.amount.trim() === '' || amount === 0) continue;
      if (!line.useSubstitute) {
        out.push({ id: med.id, amount });
        continue;
      }
      if (line.substitute.trim() === '') return t('counter.substituteMissing');
      out.push({
        id: med.id,
        amount,
        substitute: line.substitute.trim(),
        substitute_id_type: Number(line.substituteType),
      });
    }
    return out.length === 0 ? t('counter.noItems') : out;
  };

  const dispense = async (full: boolean): Promise<void> => {
    setProblem(undefined);
    const chosen = full ? undefined : items();
    if (typeof chosen === 'string') {
      setProblem(chosen);
      return;
    }
    if (await props.onDispense(chosen)) setLines(props.medicaments.map(() => EMPTY));
  };

  return (
    <section class="card dispense" aria-labelledby="dispense-title">
      <h2 id="dispense-title">{t('counter.dispenseTitle')}</h2>
      <ul class="dispense-lines">
        {props.medicaments.map((med, i) => {
          const line = lines[i] ?? EMPTY;
          const dispensed = done.get(med.id) ?? 0;
          const base = `dispense-${i}`;
          return (
            <li key={`${i}-${med.id}`} class="dispense-line" data-medicament-id={med.id}>
              <h3 id={`${base}-name`}>{medicamentLabel(med.id, med.idType, t)}</h3>
              <p class="progress" data-dispensed={dispensed}>
                {t('counter.progress')}:{' '}
                <strong>
                  {med.packs === undefined
                    ? t('counter.dispensedCount', { done: number(dispensed) })
                    : t('counter.dispensedOf', {
                        done: number(dispensed),
                        total: number(med.packs),
                      })}
                </strong>
                {' · '}
                {t('med.substitution')}:{' '}
                {t(med.substitutionAllowed ? 'med.subsAllowed' : 'med.subsNotAllowed')}
              </p>
              <div class="line-fields">
                <div class="field narrow">
                  <label for={`${base}-amount`}>{t('counter.amount')}</label>
                  <input
                    id={`${base}-amount`}
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={10000}
                    step={1}
                    aria-describedby={`${base}-name`}
                    value={line.amount}
                    onInput={(e) => update(i, { amount: e.currentTarget.value })}
                  />
                </div>
                <div class="field check">
                  <input
                    id={`${base}-subs`}
                    type="checkbox"
                    checked={line.useSubstitute}
                    aria-describedby={`${base}-name`}
                    onChange={(e) => update(i, { useSubstitute: e.currentTarget.checked })}
                  />
                  <label for={`${base}-subs`}>{t('counter.useSubstitute')}</label>
                </div>
                {line.useSubstitute && (
                  <>
                    <div class="field">
                      <label for={`${base}-substitute`}>{t('counter.substitute')}</label>
                      <input
                        id={`${base}-substitute`}
                        maxLength={500}
                        value={line.substitute}
                        onInput={(e) => update(i, { substitute: e.currentTarget.value })}
                      />
                    </div>
                    <div class="field">
                      <label for={`${base}-substitute-type`}>{t('counter.substituteType')}</label>
                      <select
                        id={`${base}-substitute-type`}
                        value={line.substituteType}
                        onChange={(e) => update(i, { substituteType: e.currentTarget.value })}
                      >
                        <option value="1">{t('med.idType.1')}</option>
                        <option value="2">{t('med.idType.2')}</option>
                        <option value="3">{t('med.idType.3')}</option>
                      </select>
                    </div>
                  </>
                )}
              </div>
            </li>
          );
        })}
      </ul>
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={props.busy}
          onClick={() => void dispense(false)}
        >
          {t('counter.partial')}
        </button>
        <button type="button" disabled={props.busy} onClick={() => void dispense(true)}>
          {t('counter.full')}
        </button>
      </div>
    </section>
  );
}
