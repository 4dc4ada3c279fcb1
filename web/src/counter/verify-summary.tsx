/**
 * The verify answer with transactions: one headline state in plain words ("Widerrufen — nicht
 * abgeben", "Gesperrt von … bis 14:05", "Abgabe möglich"), then the flags, the issue and the three
 * tamper checks. Focus moves to the headline when a new link has been verified.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { VerifyResult } from '../api/types.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';
import type { CounterState, Headline } from './counter-state.js';
import { formatUntil } from './until.js';

const CHECKS: readonly [
  keyof NonNullable<VerifyResult['tampering_detection_result']>,
  MessageKey,
][] = [
  ['prescription_url_valid', 'check.url'],
  ['prescription_hash_check_passed', 'check.hash'],
  ['logs_check_passed', 'check.logs'],
];

const TONE: Readonly<Record<Headline, string>> = {
  revoked: 'bad',
  invalid: 'bad',
  expired: 'bad',
  dispensed: 'info',
  lockedByOther: 'warn',
  lockedByMe: 'ok',
  open: 'ok',
};

function headlineText(state: CounterState, t: ReturnType<typeof useI18n>['t'], until: string) {
  const holder = state.lock?.holder ?? '';
  switch (state.headline) {
    case 'lockedByOther':
      return t(until ? 'counter.head.lockedByOtherUntil' : 'counter.head.lockedByOther', {
        holder,
        time: until,
      });
    case 'lockedByMe':
      return t(until ? 'counter.head.lockedByMeUntil' : 'counter.head.lockedByMe', { time: until });
    default:
      return t(`counter.head.${state.headline}`);
  }
}

/** Who a valid prescription is for, as its document names them. */
export interface PatientLine {
  name: string;
  birthDate: string | undefined;
}

export function VerifySummary(props: {
  result: VerifyResult;
  state: CounterState;
  /** Only for a valid link: an altered document's patient is not shown as the prescription's. */
  patient: PatientLine | undefined;
  /** Changes when a new link has been verified: focus moves to the headline. */
  loaded: number;
}) {
  const { t, date, dateTime, lang } = useI18n();
  const { failures } = props.state;
  const r = props.result;
  const checks = r.tampering_detection_result;
  const yes = t('common.yes');
  const no = t('common.no');
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [props.loaded]);
  const until = props.state.lock?.until ? formatUntil(lang, props.state.lock.until) : '';
  const tone = TONE[props.state.headline];
  return (
    <section class="card" aria-labelledby="verify-title">
      <h2
        id="verify-title"
        tabIndex={-1}
        ref={heading}
        class={`headline headline-${tone}`}
        data-headline={props.state.headline}
      >
        {headlineText(props.state, t, until)}
      </h2>
      {props.patient && (
        <p class="patient-line" data-patient="">
          <strong>{t('counter.for', { name: props.patient.name })}</strong>
          {props.patient.birthDate && (
            <>
              {' · '}
              {t('counter.born', { date: date(props.patient.birthDate) })}
            </>
          )}
        </p>
      )}
      {failures.length > 0 && (
        <div class="failures" data-failures={failures.join(' ')}>
          <h3>{t('counter.fail.title')}</h3>
          <ul>
            {failures.map((failure) => (
              <li key={failure} data-failure={failure}>
                {t(`counter.fail.${failure}`)}
              </li>
            ))}
          </ul>
        </div>
      )}
      <p class="muted">
        {t('counter.issued', { date: dateTime(r.issued_at), issuer: r.issued_by })} · {t('doc.id')}{' '}
        <code>{r.prescription_id}</code>
        {r.expires_at && (
          <>
            {' · '}
            {t('counter.head.expiresAt', { date: dateTime(r.expires_at) })}
          </>
        )}
      </p>
      <ul class="flags" aria-label={t('counter.status')}>
        <li class={`flag ${r.valid ? 'flag-off' : 'flag-bad'}`} data-flag="valid">
          {t('counter.valid')}: <strong>{r.valid ? yes : no}</strong>
        </li>
        <li class={`flag ${r.revoked ? 'flag-bad' : 'flag-off'}`} data-flag="revoked">
          {t('counter.revoked')}: <strong>{r.revoked ? yes : no}</strong>
        </li>
        <li class={`flag ${r.dispensed ? 'flag-info' : 'flag-off'}`} data-flag="dispensed">
          {t('counter.dispensed')}: <strong>{r.dispensed ? yes : no}</strong>
        </li>
        <li class={`flag ${r.locked ? 'flag-warn' : 'flag-off'}`} data-flag="locked">
          {t('counter.locked')}: <strong>{r.locked ? yes : no}</strong>
        </li>
      </ul>
      {checks && (
        <>
          <h3>{t('counter.checks')}</h3>
          <ul class="checks">
            {CHECKS.map(([field, label]) => (
              <li key={field} class={checks[field] ? 'check-ok' : 'check-bad'} data-check={field}>
                <span aria-hidden="true">{checks[field] ? '✓' : '✗'}</span> {t(label)}:{' '}
                <strong>{t(checks[field] ? 'check.passed' : 'check.failed')}</strong>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
