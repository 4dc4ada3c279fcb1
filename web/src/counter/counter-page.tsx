/** The pharmacy counter (SPEC.md §1 pharmacies): get a link, verify it, act on it. */
import { useState } from 'preact/hooks';
import type { Session } from '../api/session.js';
import { PrescriptionView } from '../components/prescription-view.js';
import { ProductNames } from '../components/product-names.js';
import { SessionBar } from '../components/session-bar.js';
import { SignIn } from '../components/sign-in.js';
import { useStaffSession } from '../components/use-staff-session.js';
import { useI18n } from '../i18n/i18n-context.js';
import { counterState } from './counter-state.js';
import { DispensePanel } from './dispense-panel.js';
import { Feedback } from './feedback.js';
import { ForceConfirm } from './force-confirm.js';
import { LinkSource } from './link-source.js';
import { LockPanel } from './lock-panel.js';
import { Modal } from './modal.js';
import { Timeline } from './timeline.js';
import { VerifySummary } from './verify-summary.js';
import { useCounter } from './use-counter.js';

/** Before the next prescription: release one's own lock, or keep it (it lapses by itself). */
function ReleaseBeforeNext(props: {
  busy: boolean;
  onRelease(): void;
  onKeep(): void;
  onAbort(): void;
}) {
  const { t } = useI18n();
  return (
    <Modal labelledBy="next-title" describedBy="next-text" onClose={props.onAbort}>
      <h2 id="next-title">{t('counter.next.title')}</h2>
      <p id="next-text">{t('counter.next.text')}</p>
      <div class="actions">
        <button type="button" class="primary" disabled={props.busy} onClick={props.onRelease}>
          {t('counter.next.release')}
        </button>
        <button type="button" disabled={props.busy} onClick={props.onKeep}>
          {t('counter.next.keep')}
        </button>
        <button type="button" disabled={props.busy} onClick={props.onAbort}>
          {t('counter.next.stay')}
        </button>
      </div>
    </Modal>
  );
}

function SignedInCounter(props: { session: Session; onSignOut(expired: boolean): void }) {
  const { t } = useI18n();
  const counter = useCounter(props.session, () => props.onSignOut(true));
  const { decoded, result, feedback } = counter;
  // A new key empties the link field for the next prescription (and focuses it).
  const [round, setRound] = useState(0);
  const [askNext, setAskNext] = useState(false);
  const state = result && counterState(result, props.session.sub);
  const next = (): void => {
    setAskNext(false);
    counter.clear();
    setRound((r) => r + 1);
  };
  return (
    <>
      <SessionBar
        session={props.session}
        expected="pharmacist"
        onSignOut={() => props.onSignOut(false)}
      />
      <LinkSource
        key={round}
        focus={round > 0}
        busy={counter.busy}
        onLink={(link) => void counter.load(link)}
      />
      <div class="live" role="status" aria-live="polite">
        {counter.busy ? t('common.busy') : ''}
      </div>
      <Feedback place="link" feedback={feedback} />
      {counter.bare && (
        <div class="bare-document" data-bare="true">
          <ProductNames medicaments={counter.bare.medicaments}>
            <PrescriptionView doc={counter.bare} />
          </ProductNames>
        </div>
      )}
      {counter.pendingForce && (
        <ForceConfirm
          rules={counter.pendingForce.rules}
          busy={counter.busy}
          onConfirm={(reason) => void counter.confirmForce(reason)}
          onAbort={counter.abortForce}
        />
      )}
      {askNext && (
        <ReleaseBeforeNext
          busy={counter.busy}
          onRelease={() => void counter.unlock('').then((ok) => ok && next())}
          onKeep={next}
          onAbort={() => setAskNext(false)}
        />
      )}
      {decoded.state === 'ok' && result && state && (
        <ProductNames medicaments={decoded.doc.medicaments}>
          <div class="counter-grid">
            <div class="counter-main">
              <VerifySummary result={result} state={state} loaded={counter.loaded} />
              <LockPanel
                state={state}
                dispensed={result.dispensed}
                busy={counter.busy}
                feedback={feedback}
                onLock={counter.lock}
                onUnlock={counter.unlock}
              />
              <DispensePanel
                key={result.prescription_id}
                medicaments={decoded.doc.medicaments}
                result={result}
                state={state}
                busy={counter.busy}
                feedback={feedback}
                onDispense={counter.dispense}
                onForce={() => counter.askForce(undefined)}
              />
              <PrescriptionView doc={decoded.doc} />
            </div>
            <div class="counter-side">
              <Timeline
                result={result}
                me={props.session.sub}
                busy={counter.busy}
                cancelRefused={
                  state.cancelRefused &&
                  t(state.cancelRefused, { holder: state.lock?.holder ?? '' })
                }
                feedback={feedback}
                onCancel={(id) => void counter.cancel(id)}
              />
              <button type="button" onClick={() => (state.mayUnlock ? setAskNext(true) : next())}>
                {t('counter.clear')}
              </button>
            </div>
          </div>
        </ProductNames>
      )}
    </>
  );
}

export function CounterPage() {
  const { t } = useI18n();
  // An expired token is renewed in place (a dialog), so the loaded prescription stays; a 401 that
  // still arrives (the person declined) leaves the screen as it is, with its error.
  const { session, signedIn, signOut, dialog } = useStaffSession('pharmacist');
  return (
    <>
      <h1>{t('counter.title')}</h1>
      {session === undefined ? (
        <SignIn role="pharmacist" onSignedIn={signedIn} />
      ) : (
        <SignedInCounter session={session} onSignOut={(expired) => expired || signOut()} />
      )}
      {dialog}
    </>
  );
}
