/** The prescriber desk (SPEC.md §1 prescribers): compose, create, show the QR code, revoke. */
import { useMemo, useState } from 'preact/hooks';
import { ApiError } from '../api/http.js';
import * as api from '../api/prescriptions.js';
import type { Session } from '../api/session.js';
import { newUuid } from '../api/uuid.js';
import { documentView } from '../chmed/document-view.js';
import { errorMessage } from '../components/error-message.js';
import { SessionBar } from '../components/session-bar.js';
import { SignIn } from '../components/sign-in.js';
import { useI18n } from '../i18n/i18n-context.js';
import { violationText } from '../i18n/service-text.js';
import { CreatedPanel } from './created-panel.js';
import type { Created } from './created-panel.js';
import { buildDocument, emptyDraft } from './draft.js';
import { IssuedList } from './issued-list.js';
import type { Draft } from './draft.js';
import { PrescriptionForm } from './prescription-form.js';
import { Violations } from './violations.js';

function SignedInDesk(props: { session: Session; onSignOut(expired: boolean): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [draft, setDraft] = useState<Draft>(() => emptyDraft());
  const [violations, setViolations] = useState(() => new Violations());
  const [created, setCreated] = useState<Created | undefined>(undefined);
  const [revoked, setRevoked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const [message, setMessage] = useState<string | undefined>(undefined);
  // The links created on this page (the service keeps none), and a count that reloads the list.
  const [known, setKnown] = useState<ReadonlyMap<string, Created>>(() => new Map());
  const [listVersion, setListVersion] = useState(0);
  const worded = useMemo(
    () => violations.worded((v) => violationText(v, i18n)),
    [violations, i18n],
  );

  const fail = (failure: unknown): void => {
    if (failure instanceof ApiError && failure.status === 401) props.onSignOut(true);
    setError(errorMessage(failure, t));
  };

  const submit = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    setMessage(undefined);
    // A fresh UUID per prescription: ids must be unguessable (SPEC.md §4).
    const doc = buildDocument(draft, newUuid(), new Date());
    try {
      const answer = await api.create(doc, props.session.token);
      setViolations(new Violations());
      setRevoked(false);
      const made: Created = {
        id: answer.prescription_id,
        link: answer.SignedPrescriptionData,
        doc: documentView(doc),
      };
      setCreated(made);
      setKnown((links) => new Map(links).set(made.id, made));
      setListVersion((n) => n + 1);
    } catch (failure) {
      const listed = failure instanceof ApiError ? failure.body?.violations : undefined;
      if (listed && listed.length > 0) setViolations(new Violations(listed));
      else fail(failure);
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (): Promise<void> => {
    if (created === undefined) return;
    setBusy(true);
    setError(undefined);
    try {
      await api.revoke(created.id, props.session.token);
      setRevoked(true);
      setMessage(t('done.revoke'));
      setListVersion((n) => n + 1);
    } catch (failure) {
      fail(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <SessionBar
        session={props.session}
        expected="prescriber"
        onSignOut={() => props.onSignOut(false)}
      />
      <div class="live" role="status" aria-live="polite">
        {busy ? t('common.busy') : (message ?? '')}
      </div>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      {created ? (
        <CreatedPanel
          created={created}
          revoked={revoked}
          busy={busy}
          onRevoke={() => void revoke()}
          onNew={() => {
            setCreated(undefined);
            setMessage(undefined);
            setDraft(emptyDraft(draft));
          }}
        />
      ) : (
        <PrescriptionForm
          draft={draft}
          violations={worded}
          busy={busy}
          onDraft={setDraft}
          onSubmit={() => void submit()}
        />
      )}
      <IssuedList
        token={props.session.token}
        version={listVersion}
        known={new Set(known.keys())}
        onShow={(id, isRevoked) => {
          const shown = known.get(id);
          if (shown === undefined) return;
          setCreated(shown);
          setRevoked(isRevoked);
          setMessage(undefined);
        }}
        onRevoked={(id) => {
          if (created?.id === id) setRevoked(true);
        }}
      />
    </>
  );
}

export function DeskPage() {
  const { t } = useI18n();
  const [session, setSession] = useState<Session | undefined>(undefined);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  return (
    <>
      <h1 class="no-print">{t('desk.title')}</h1>
      {session === undefined ? (
        <SignIn
          role="prescriber"
          notice={notice}
          onSignedIn={(s) => {
            setNotice(undefined);
            setSession(s);
          }}
        />
      ) : (
        <SignedInDesk
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
