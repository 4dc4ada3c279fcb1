/** The pharmacy counter (SPEC.md §1 pharmacies): get a link, verify it, act on it. */
import { useState } from 'preact/hooks';
import type { Session } from '../api/session.js';
import { PrescriptionView } from '../components/prescription-view.js';
import { SessionBar } from '../components/session-bar.js';
import { SignIn } from '../components/sign-in.js';
import { useI18n } from '../i18n/i18n-context.js';
import { DispensePanel } from './dispense-panel.js';
import { ForceConfirm } from './force-confirm.js';
import { LinkSource } from './link-source.js';
import { LockPanel } from './lock-panel.js';
import { Timeline } from './timeline.js';
import { VerifySummary } from './verify-summary.js';
import { useCounter } from './use-counter.js';

function SignedInCounter(props: { session: Session; onSignOut(expired: boolean): void }) {
  const { t } = useI18n();
  const counter = useCounter(props.session, () => props.onSignOut(true));
  const { decoded, result } = counter;
  // A new key empties the link field for the next prescription.
  const [round, setRound] = useState(0);
  return (
    <>
      <SessionBar
        session={props.session}
        expected="pharmacist"
        onSignOut={() => props.onSignOut(false)}
      />
      <LinkSource key={round} busy={counter.busy} onLink={(link) => void counter.load(link)} />
      <div class="live" role="status" aria-live="polite">
        {counter.busy ? t('common.busy') : (counter.message ?? '')}
      </div>
      {counter.error && (
        <p class="error" role="alert">
          {counter.error}
        </p>
      )}
      {counter.pendingForce && (
        <ForceConfirm
          busy={counter.busy}
          onConfirm={() => void counter.confirmForce()}
          onAbort={counter.abortForce}
        />
      )}
      {decoded.state === 'ok' && result && (
        <div class="counter-grid">
          <div class="counter-main">
            <VerifySummary result={result} />
            <DispensePanel
              key={result.prescription_id}
              medicaments={decoded.doc.medicaments}
              result={result}
              busy={counter.busy}
              onDispense={counter.dispense}
            />
            <PrescriptionView doc={decoded.doc} />
          </div>
          <div class="counter-side">
            <LockPanel
              locked={result.locked === true}
              busy={counter.busy}
              onLock={counter.lock}
              onUnlock={counter.unlock}
            />
            <Timeline
              result={result}
              me={props.session.sub}
              busy={counter.busy}
              onCancel={(id) => void counter.cancel(id)}
            />
            <button
              type="button"
              onClick={() => {
                counter.clear();
                setRound((r) => r + 1);
              }}
            >
              {t('counter.clear')}
            </button>
          </div>
        </div>
      )}
    </>
  );
}

export function CounterPage() {
  const { t } = useI18n();
  const [session, setSession] = useState<Session | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  return (
    <>
      <h1>{t('counter.title')}</h1>
      {session === undefined ? (
        <SignIn
          role="pharmacist"
          notice={notice}
          onSignedIn={(s) => {
            setNotice(undefined);
            setSession(s);
          }}
        />
      ) : (
        <SignedInCounter
          session={session}
          onSignOut={(expired) => {
            setNotice(expired ? t('session.expired') : undefined);
            setSession(undefined);
          }}
        />
      )}
    </>
  );
}
