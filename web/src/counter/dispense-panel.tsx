/**
 * Dispensing at the counter: the service's own table of packages per medicament (prescribed,
 * dispensed, remaining; SPEC.md §10), refreshed after every action; "dispense the rest" as the
 * one-click common case (a full dispensation takes every medicament to its prescribed quantity);
 * or the packs entered per medicament, with an optional substitute (seed §2.2). What the service
 * would refuse is disabled with the reason beside it; what only force allows opens the force
 * dialog, which names the rule overridden. When partial dispensations have covered the
 * prescription and no full dispensation stands, HIN's closing step (SPEC.md §5) is offered
 * instead of force: "close the prescription", a full dispensation without force.
 */
import { useState } from 'preact/hooks';
import type { DispenseItem, VerifyResult } from '../api/types.js';
import { MedicamentName } from '../components/product-names.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { CounterState } from './counter-state.js';
import { Feedback } from './feedback.js';
import type { StoredMedicament } from './stored-medicaments.js';
import type { Feedback as Answer } from './use-counter.js';

interface Line {
  amount: string;
  useSubstitute: boolean;
  substitute: string;
  substituteType: string;
}

const EMPTY: Line = { amount: '', useSubstitute: false, substitute: '', substituteType: '2' };

export function DispensePanel(props: {
  /** The stored medicaments (never the link's content, which may be altered). */
  medicaments: readonly StoredMedicament[];
  result: VerifyResult;
  state: CounterState;
  busy: boolean;
  feedback: Answer | undefined;
  onDispense(items: DispenseItem[] | undefined): Promise<boolean>;
  /** HIN's closing step: a full dispensation without force, handing out nothing more. */
  onClose(): Promise<boolean>;
  onForce(): void;
}) {
  const { t, number, plural } = useI18n();
  const [lines, setLines] = useState<readonly Line[]>(() => props.medicaments.map(() => EMPTY));
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const { closable, dispenseRefused, nothingRemains, stateOverrides, trusted } = props.state;
  const refused = dispenseRefused !== undefined;
  const done = nothingRemains || props.result.dispensed;

  const update = (index: number, change: Partial<Line>): void =>
    setLines((current) => current.map((line, i) => (i === index ? { ...line, ...change } : line)));

  const items = (): DispenseItem[] | string => {
    const out: DispenseItem[] = [];
    for (const [i, line] of lines.entries()) {
      const med = props.medicaments[i];
      const amount = Number(line.amount);
      if (med === undefined || line.amount.trim() === '' || amount === 0) continue;
      if (!line.useSubstitute || !med.substitutionAllowed) {
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

  // Why the buttons are disabled: refused outright, or nothing left to dispense.
  const why = refused
    ? t(dispenseRefused, { holder: props.state.lock?.holder ?? '' })
    : done
      ? t('counter.why.nothingRemains')
      : undefined;
  const forcedOnly = !refused && !done && stateOverrides.includes('expired');

  return (
    <section class="card dispense" aria-labelledby="dispense-title">
      <h2 id="dispense-title">{t('counter.dispenseTitle')}</h2>
      {props.medicaments.length > 0 && (
        <table class="medicament-status">
          <caption>{t('counter.meds.caption')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('counter.medicament')}</th>
              <th scope="col">{t('counter.meds.prescribed')}</th>
              <th scope="col">{t('counter.meds.dispensed')}</th>
              <th scope="col">{t('counter.meds.remaining')}</th>
            </tr>
          </thead>
          <tbody>
            {props.medicaments.map((med, i) => (
              <tr key={`${i}-${med.id}`} data-medicament-id={med.id}>
                <th scope="row">
                  <MedicamentName id={med.id} idType={med.idType} />
                </th>
                <td data-col="prescribed" data-label={t('counter.meds.prescribed')}>
                  {number(med.prescribed)}
                </td>
                <td data-col="dispensed" data-label={t('counter.meds.dispensed')}>
                  {number(med.dispensed)}
                </td>
                <td data-col="remaining" data-label={t('counter.meds.remaining')}>
                  {number(med.remaining)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {!trusted && (
        <p class="why" data-why="stored">
          {t('counter.stored.note')}
        </p>
      )}
      {/* A link not to be trusted gets no fields to dispense: only the record and why. */}
      {trusted && (
        <ul class="dispense-lines">
          {props.medicaments.map((med, i) => {
            const line = lines[i] ?? EMPTY;
            const remaining = med.remaining;
            const closed = refused || remaining === 0;
            const noSubstitute = !med.substitutionAllowed;
            const base = `dispense-${i}`;
            return (
              <li key={`${i}-${med.id}`} class="dispense-line" data-medicament-id={med.id}>
                <h3 id={`${base}-name`}>
                  <MedicamentName id={med.id} idType={med.idType} />
                </h3>
                <p class="progress" data-remaining={remaining}>
                  {plural('counter.meds.remainingOf', med.prescribed, {
                    remaining: number(remaining),
                    total: number(med.prescribed),
                  })}
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
                      disabled={closed}
                      aria-describedby={`${base}-name`}
                      value={closed ? '' : line.amount}
                      onInput={(e) => update(i, { amount: e.currentTarget.value })}
                    />
                  </div>
                  <div class="field check">
                    <input
                      id={`${base}-subs`}
                      type="checkbox"
                      disabled={closed || noSubstitute}
                      checked={!closed && !noSubstitute && line.useSubstitute}
                      aria-describedby={
                        noSubstitute ? `${base}-name ${base}-subs-why` : `${base}-name`
                      }
                      onChange={(e) => update(i, { useSubstitute: e.currentTarget.checked })}
                    />
                    <label for={`${base}-subs`}>{t('counter.useSubstitute')}</label>
                    {noSubstitute && (
                      <span id={`${base}-subs-why`} class="why" data-why="substitution">
                        {t('counter.why.noSubstitution')}
                      </span>
                    )}
                  </div>
                  {!closed && !noSubstitute && line.useSubstitute && (
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
      )}
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={props.busy || why !== undefined}
          aria-describedby={why ? 'dispense-why' : undefined}
          onClick={() => void dispense(true)}
        >
          {t('counter.meds.rest')}
        </button>
        <button
          type="button"
          disabled={props.busy || why !== undefined}
          aria-describedby={why ? 'dispense-why' : undefined}
          onClick={() => void dispense(false)}
        >
          {t('counter.partial')}
        </button>
        {closable && (
          <button
            type="button"
            class="primary"
            disabled={props.busy}
            aria-describedby="dispense-closing"
            onClick={() => void props.onClose()}
          >
            {t('counter.close')}
          </button>
        )}
        {trusted && !refused && done && !closable && (
          <button type="button" class="danger" disabled={props.busy} onClick={props.onForce}>
            {t('counter.force.open')}
          </button>
        )}
      </div>
      {why && (
        <p id="dispense-why" class="why" data-why="dispense">
          {why}
        </p>
      )}
      {closable && (
        <p id="dispense-closing" class="why" data-why="closing">
          {t('counter.why.closing')}
        </p>
      )}
      {forcedOnly && <p class="why">{t('counter.why.expiredForce')}</p>}
      <Feedback place="dispense" feedback={props.feedback} focus />
    </section>
  );
}
