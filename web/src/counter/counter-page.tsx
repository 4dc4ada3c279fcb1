/** The pharmacy counter (SPEC.md §1 pharmacies): get a link, verify it, act on it. */
import { useState } from 'preact/hooks';
import type { Session } from '../api/session.js';
import { PrescriptionView } from '../components/prescription-view.js';
import { ForeignDocument } from '../components/foreign-document.js';
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
import { storedMedicaments } from './stored-medicaments.js';
import { VerifySummary } from './verify-summary.js';
import { useCounter } from './use-counter.js';

/**
 * Before the next prescription or signing out: release one's own lock, or keep it (it lapses by
 * itself), or stay.
 */
function ReleaseFirst(props: {
  /** What follows: the next prescription, or signing out. */
  then: 'next' | 'signOut';
  busy: boolean;
  onRelease(): void;
  onKeep(): void;
  onAbort(): void;
}) {
  const { t } = useI18n();
  const next = props.then === 'next';
  return (
    <Modal labelledBy="next-title" describedBy="next-text" onClose={props.onAbort}>
      <h2 id="next-title">{t('counter.next.title')}</h2>
      <p id="next-text">{t(next ? 'counter.next.text' : 'counter.signOut.text')}</p>
      <div class="actions" data-then={props.then}>
        <button type="button" class="primary" disabled={props.busy} onClick={props.onRelease}>
          {t(next ? 'counter.next.release' : 'counter.signOut.release')}
        </button>
        <button type="button" disabled={props.busy} onClick={props.onKeep}>
          {t(next ? 'counter.next.keep' : 'counter.signOut.keep')}
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
  const [asking, setAsking] = useState<'next' | 'signOut' | undefined>(undefined);
  const state = result && counterState(result, props.session.sub);
  // Only a link that verified is read as the prescription; any other shows the stored record.
  const genuine = result !== undefined && state !== undefined && state.failures.length === 0;
  const doc = decoded.state === 'ok' && genuine ? decoded.doc : undefined;
  const stored = result ? storedMedicaments(result, doc) : [];
  const ask = (then: 'next' | 'signOut'): void => {
    counter.quiet();
    setAsking(then);
  };
  const next = (): void => {
    setAsking(undefined);
    counter.clear();
    setRound((r) => r + 1);
  };
  const signOut = (): void => {
    setAsking(undefined);
    props.onSignOut(false);
  };
  const patient = doc && {
    name: [doc.patient.firstName, doc.patient.lastName].filter(Boolean).join(' '),
    birthDate: doc.patient.birthDate,
  };
  return (
    <>
      <SessionBar
        session={props.session}
        expected="pharmacist"
        onSignOut={() => (state?.mayUnlock ? ask('signOut') : signOut())}
      />
      <LinkSource
        key={round}
        focus
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
      {decoded.state === 'foreign' && (
        <ForeignDocument foreign={decoded.foreign} doc={decoded.doc} />
      )}
      {counter.pendingForce && (
        <ProductNames medicaments={stored}>
          <ForceConfirm
            rules={counter.pendingForce.rules}
            items={counter.pendingForce.items}
            medicaments={stored}
            busy={counter.busy}
            onConfirm={(reason) => void counter.confirmForce(reason)}
            onAbort={counter.abortForce}
          />
        </ProductNames>
      )}
      {asking && (
        <ReleaseFirst
          then={asking}
          busy={counter.busy}
          onRelease={() =>
            void counter.unlock('').then((ok) => ok && (asking === 'next' ? next() : signOut()))
          }
          onKeep={asking === 'next' ? next : signOut}
          onAbort={() => setAsking(undefined)}
        />
      )}
      {decoded.state === 'ok' && result && state && (
        <ProductNames medicaments={stored}>
          <div class="counter-grid">
            <div class="counter-main">
              <VerifySummary
                result={result}
                state={state}
                patient={patient}
                loaded={counter.loaded}
              />
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
                medicaments={stored}
                result={result}
                state={state}
                busy={counter.busy}
                feedback={feedback}
                onDispense={counter.dispense}
                onClose={counter.close}
                onForce={() => counter.askForce(undefined)}
              />
              {doc ? (
                <PrescriptionView doc={doc} />
              ) : (
                <details class="altered" data-altered="true">
                  <summary>{t('counter.altered.summary')}</summary>
                  <ProductNames medicaments={decoded.doc.medicaments}>
                    <PrescriptionView doc={decoded.doc} />
                  </ProductNames>
                </details>
              )}
            </div>
            <div class="counter-side">
              <Timeline
                result={result}
                medicaments={stored}
                me={props.session.sub}
                busy={counter.busy}
                cancelRefused={
                  state.cancelRefused &&
                  t(state.cancelRefused, { holder: state.lock?.holder ?? '' })
                }
                feedback={feedback}
                onAsk={counter.quiet}
                onCancel={(id) => void counter.cancel(id)}
              />
              <button type="button" onClick={() => (state.mayUnlock ? ask('next') : next())}>
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
