/** The verify answer with transactions: state flags, issue, and the three tamper checks. */
import type { VerifyResult } from '../api/types.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';

const CHECKS: readonly [
  keyof NonNullable<VerifyResult['tampering_detection_result']>,
  MessageKey,
][] = [
  ['prescription_url_valid', 'check.url'],
  ['prescription_hash_check_passed', 'check.hash'],
  ['logs_check_passed', 'check.logs'],
];

export function VerifySummary(props: { result: VerifyResult }) {
  const { t, dateTime } = useI18n();
  const r = props.result;
  const checks = r.tampering_detection_result;
  const yes = t('common.yes');
  const no = t('common.no');
  return (
    <section class="card" aria-labelledby="verify-title">
      <h2 id="verify-title">{t('counter.status')}</h2>
      <p class="muted">
        {t('counter.issued', { date: dateTime(r.issued_at), issuer: r.issued_by })} · {t('doc.id')}{' '}
        <code>{r.prescription_id}</code>
      </p>
      <ul class="flags" aria-label={t('counter.status')}>
        <li class={`flag ${r.valid ? 'flag-ok' : 'flag-bad'}`} data-flag="valid">
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
          {r.locked && r.locked_at && (
            <span class="muted">
              {' '}
              ({t('counter.lockedSince', { time: dateTime(r.locked_at) })})
            </span>
          )}
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
