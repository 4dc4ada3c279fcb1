/**
 * A medicament's dosage `D` as morning / noon / evening / night, one row per period (`Pos`); the
 * period (`DtFrom`, `DtTo`) under its doses, so the table keeps four columns on a phone.
 */
import { Fragment } from 'preact';
import type { DosageView } from '../chmed/document-view.js';
import { useI18n } from '../i18n/i18n-context.js';
import { PosologyText } from './posology-text.js';

export function DosageTable(props: { dosages: readonly DosageView[]; unit: string | undefined }) {
  const { t, date } = useI18n();
  if (props.dosages.length === 0) return <p class="muted">{t('med.noDosage')}</p>;
  const period = (d: DosageView): string =>
    [d.from && t('med.from', { date: date(d.from) }), d.to && t('med.until', { date: date(d.to) })]
      .filter(Boolean)
      .join(' ');
  // CHMED23A: daily doses go in the table, every other posology is worded below it.
  const daily = props.dosages.filter((d) => d.po === undefined);
  const worded = props.dosages.filter((d) => d.po !== undefined || d.reserve || d.meal);
  return (
    <>
      {daily.length > 0 && <Table dosages={daily} unit={props.unit} period={period} />}
      {worded.map((d, i) => (
        <div class="posology-entry" key={i}>
          <PosologyText dosage={d} />
          {d.po !== undefined && period(d) !== '' && (
            <p class="period">
              {t('med.period')}: {period(d)}
            </p>
          )}
        </div>
      ))}
    </>
  );
}

function Table(props: {
  dosages: readonly DosageView[];
  unit: string | undefined;
  period(d: DosageView): string;
}) {
  const { t, number } = useI18n();
  const period = props.period;
  return (
    <div class="table-scroll">
      <table class="dosage">
        <caption>
          {t('med.dosage')}
          {props.unit ? ` (${props.unit})` : ''}
        </caption>
        <thead>
          <tr>
            <th scope="col">{t('med.morning')}</th>
            <th scope="col">{t('med.noon')}</th>
            <th scope="col">{t('med.evening')}</th>
            <th scope="col">{t('med.night')}</th>
          </tr>
        </thead>
        <tbody>
          {props.dosages.map((d, i) => (
            <Fragment key={i}>
              <tr>
                {[0, 1, 2, 3].map((slot) => {
                  const dose = d.doses[slot];
                  return <td key={slot}>{dose === undefined ? '–' : number(dose)}</td>;
                })}
              </tr>
              {period(d) !== '' && (
                <tr>
                  <td colSpan={4} class="period">
                    {t('med.period')}: {period(d)}
                  </td>
                </tr>
              )}
            </Fragment>
          ))}
        </tbody>
      </table>
    </div>
  );
}
