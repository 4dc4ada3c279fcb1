/**
 * The status answer in plain words for the patient: one sentence for the state that matters most
 * (not genuine, revoked, dispensed, expired, partly dispensed, valid), the facts, and for a
 * prescription still to collect what is left of each medicament. The validity end and the packages
 * come from the status call, which answers them for a genuine link only (SPEC.md §10 "Who sees
 * what"); a status that could not be checked can be checked again.
 */
import { useEffect, useRef } from 'preact/hooks';
import type { StatusResult } from '../api/types.js';
import type { MedicamentView } from '../chmed/document-view.js';
import { medicamentLabel } from '../components/medicament-label.js';
import { useProductName } from '../components/product-names.js';
import { useI18n } from '../i18n/i18n-context.js';
import type { MessageKey } from '../i18n/messages-en.js';
import type { StatusState } from './use-status.js';

type Tone = 'ok' | 'info' | 'warn' | 'bad';
type Shown = 'invalid' | 'revoked' | 'dispensed' | 'expired' | 'partial' | 'valid';

type Packages = NonNullable<StatusResult['medicaments']>[number];

const TONES: Readonly<Record<Shown, Tone>> = {
  invalid: 'bad',
  revoked: 'bad',
  dispensed: 'info',
  expired: 'bad',
  partial: 'ok',
  valid: 'ok',
};

/** The state that matters most to the patient; a dispensed prescription has nothing to expire. */
function shownState(r: StatusResult): Shown {
  if (!r.valid) return 'invalid';
  if (r.revoked) return 'revoked';
  if (r.dispensed) return 'dispensed';
  if (r.expired === true) return 'expired';
  if (r.medicaments?.some((m) => m.dispensed > 0) === true) return 'partial';
  return 'valid';
}

/** The main sentence of `state`, with the validity end where the answer has it. */
function mainText(state: Shown, r: StatusResult, i18n: ReturnType<typeof useI18n>): string {
  const { t, date } = i18n;
  const end = r.expires_at === undefined ? undefined : { date: date(r.expires_at) };
  if (state === 'expired' && end) return t('patient.state.expired', end);
  if (state === 'partial' && end) return t('patient.state.partial', end);
  if (state === 'valid' && end) return t('patient.state.validUntil', end);
  const plain: Readonly<Record<Shown, MessageKey>> = {
    invalid: 'patient.state.invalid',
    revoked: 'patient.state.revoked',
    dispensed: 'patient.state.dispensed',
    expired: 'patient.state.expiredPlain',
    partial: 'patient.state.partialPlain',
    valid: 'patient.state.valid',
  };
  return t(plain[state]);
}

/**
 * The prescriber's name of an issuer label (`Dr. med. Lukas Beispiel (HIN|demo.doctor)`, seed
 * §2.3): the actor id in brackets means nothing to a patient.
 */
export function issuerName(label: string): string {
  return label.replace(/\s*\([^()]*\)$/, '') || label;
}

/** What is left of one medicament, named as the prescription shows it. */
function PackagesLeft(props: { packages: Packages; idType: number | undefined }) {
  const { t } = useI18n();
  const { id, prescribed, remaining } = props.packages;
  const name = useProductName(id, props.idType) ?? medicamentLabel(id, props.idType, t);
  // One package is said in the singular: "1 of 1 package", "1 of 3" (French: "1 emballage").
  const key: MessageKey =
    remaining === 0
      ? 'patient.remaining.done'
      : remaining > 1
        ? 'patient.remaining.of'
        : prescribed === 1
          ? 'patient.remaining.ofOne'
          : 'patient.remaining.oneOf';
  const text = t(key, { remaining, prescribed, name });
  return (
    <li data-medicament={id} data-remaining={remaining}>
      {text}
    </li>
  );
}

export function PatientStatus(props: {
  answer: StatusState;
  retry: () => void;
  medicaments: readonly MedicamentView[];
}) {
  const i18n = useI18n();
  const { t, dateTime, date } = i18n;
  const a = props.answer;
  const box = useRef<HTMLDivElement>(null);
  const retried = useRef(false);
  // After "check again", the new answer takes the focus the vanished button had.
  useEffect(() => {
    if (!retried.current || a.state === 'checking') return;
    retried.current = false;
    box.current?.focus();
  }, [a.state]);

  if (a.state !== 'answered') {
    const key: MessageKey =
      a.state === 'checking'
        ? 'patient.checking'
        : a.state === 'unknown'
          ? 'patient.state.unknown'
          : 'patient.state.unreachable';
    const tone: Tone = a.state === 'checking' ? 'info' : a.state === 'unknown' ? 'bad' : 'warn';
    return (
      <div
        class={`status status-${tone}`}
        role="status"
        data-state={a.state}
        ref={box}
        tabIndex={-1}
      >
        <p class="status-main">{t(key)}</p>
        {a.state === 'unreachable' && (
          <button
            type="button"
            data-action="retry"
            onClick={() => {
              retried.current = true;
              props.retry();
            }}
          >
            {t('patient.retry')}
          </button>
        )}
      </div>
    );
  }
  const r = a.result;
  const state = shownState(r);
  const yesNo = (v: boolean): string => t(v ? 'common.yes' : 'common.no');
  const idTypes = new Map(props.medicaments.map((m) => [m.id, m.idType]));
  const toCollect = (state === 'valid' || state === 'partial') && r.medicaments !== undefined;
  return (
    <div
      class={`status status-${TONES[state]}`}
      role="status"
      data-state={state}
      ref={box}
      tabIndex={-1}
    >
      <p class="status-main">{mainText(state, r, i18n)}</p>
      <p class="muted">
        {t('patient.issuedBy', { issuer: issuerName(r.issued_by), date: dateTime(r.issued_at) })}
      </p>
      <dl class="status-facts" aria-label={t('patient.facts')}>
        <div data-fact="genuine">
          <dt>{t('patient.fact.genuine')}</dt>
          <dd>{yesNo(r.valid)}</dd>
        </div>
        <div data-fact="revoked">
          <dt>{t('patient.fact.revoked')}</dt>
          <dd>{yesNo(r.revoked)}</dd>
        </div>
        <div data-fact="dispensed">
          <dt>{t('patient.fact.dispensed')}</dt>
          <dd>{yesNo(r.dispensed)}</dd>
        </div>
        {r.expires_at !== undefined && r.valid && (
          <div data-fact="valid-until">
            <dt>{t('patient.fact.validUntil')}</dt>
            <dd>{date(r.expires_at)}</dd>
          </div>
        )}
        {r.expired !== undefined && r.valid && (
          <div data-fact="expired">
            <dt>{t('patient.fact.expired')}</dt>
            <dd>{yesNo(r.expired)}</dd>
          </div>
        )}
        {state === 'dispensed' && (
          <div data-fact="remaining">
            <dt>{t('patient.fact.remaining')}</dt>
            <dd>{t('patient.remaining.none')}</dd>
          </div>
        )}
      </dl>
      {toCollect && (
        <>
          <p class="status-sub" id="patient-remaining">
            {t('patient.remaining.title')}
          </p>
          <ul class="status-remaining" aria-labelledby="patient-remaining">
            {r.medicaments!.map((m) => (
              <PackagesLeft key={m.id} packages={m} idType={idTypes.get(m.id)} />
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
