/**
 * The verify answer in plain words for the patient: one sentence for the state that matters most
 * (not genuine, revoked, dispensed, valid), then the three facts. The anonymous answer holds no
 * validity end and no packages left (SPEC.md §5, the short variant; the end depends on the
 * service's configuration), so nothing is guessed: an open prescription says the pharmacy sees
 * both, a completely dispensed one that no packages are left.
 */
import type { VerifyResult } from '../api/types.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';
import type { VerifyState } from './use-verify.js';

type Tone = 'ok' | 'info' | 'warn' | 'bad';

function summary(result: VerifyResult): { state: string; key: MessageKey; tone: Tone } {
  if (!result.valid) return { state: 'invalid', key: 'patient.state.invalid', tone: 'bad' };
  if (result.revoked) return { state: 'revoked', key: 'patient.state.revoked', tone: 'bad' };
  if (result.dispensed) return { state: 'dispensed', key: 'patient.state.dispensed', tone: 'info' };
  return { state: 'valid', key: 'patient.state.valid', tone: 'ok' };
}

/**
 * The prescriber's name of an issuer label (`Dr. med. Lukas Beispiel (HIN|demo.doctor)`, seed
 * §2.3): the actor id in brackets means nothing to a patient.
 */
export function issuerName(label: string): string {
  return label.replace(/\s*\([^()]*\)$/, '') || label;
}

export function PatientStatus(props: { answer: VerifyState }) {
  const { t, dateTime } = useI18n();
  const a = props.answer;
  if (a.state !== 'answered') {
    const key: MessageKey =
      a.state === 'checking'
        ? 'patient.checking'
        : a.state === 'unknown'
          ? 'patient.state.unknown'
          : 'patient.state.unreachable';
    const tone: Tone = a.state === 'checking' ? 'info' : a.state === 'unknown' ? 'bad' : 'warn';
    return (
      <div class={`status status-${tone}`} role="status" data-state={a.state}>
        <p class="status-main">{t(key)}</p>
      </div>
    );
  }
  const r = a.result;
  const s = summary(r);
  const yesNo = (v: boolean): string => t(v ? 'common.yes' : 'common.no');
  return (
    <div class={`status status-${s.tone}`} role="status" data-state={s.state}>
      <p class="status-main">{t(s.key)}</p>
      <p class="muted">
        {t('patient.issuedBy', { issuer: issuerName(r.issued_by), date: dateTime(r.issued_at) })}
      </p>
      <dl class="status-facts" aria-label={t('patient.facts')}>
        <div>
          <dt>{t('patient.fact.genuine')}</dt>
          <dd>{yesNo(r.valid)}</dd>
        </div>
        <div>
          <dt>{t('patient.fact.revoked')}</dt>
          <dd>{yesNo(r.revoked)}</dd>
        </div>
        <div>
          <dt>{t('patient.fact.dispensed')}</dt>
          <dd>{yesNo(r.dispensed)}</dd>
        </div>
        {s.state === 'dispensed' && (
          <div data-fact="remaining">
            <dt>{t('patient.fact.remaining')}</dt>
            <dd>{t('patient.remaining.none')}</dd>
          </div>
        )}
      </dl>
      {s.state === 'valid' && (
        <p class="muted" data-note="remaining">
          {t('patient.remaining.atPharmacy')}
        </p>
      )}
    </div>
  );
}
