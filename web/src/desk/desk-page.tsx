/** The prescriber desk (SPEC.md §1 prescribers): compose, create, show the QR code, revoke. */
import { useEffect, useMemo, useState } from 'preact/hooks';
import { searchProducts } from '../api/catalog.js';
import { ApiError } from '../api/http.js';
import { fetchMe } from '../api/me.js';
import * as api from '../api/prescriptions.js';
import type { Session } from '../api/session.js';
import { newUuid } from '../api/uuid.js';
import { documentView } from '../chmed/document-view.js';
import { errorMessage } from '../components/error-message.js';
import { SessionBar } from '../components/session-bar.js';
import { SignIn } from '../components/sign-in.js';
import { useStaffSession } from '../components/use-staff-session.js';
import { useI18n } from '../i18n/i18n-context.js';
import { violationText } from '../i18n/service-text.js';
import { CreatedPanel } from './created-panel.js';
import type { Created } from './created-panel.js';
import { DoseConfirm } from './dose-confirm.js';
import { buildDocument, emptyDraft } from './draft.js';
import { IssuedList } from './issued-list.js';
import type { Draft } from './draft.js';
import { highDoses } from './plausibility.js';
import type { HighDose } from './plausibility.js';
import { PrescriptionForm } from './prescription-form.js';
import { prefillFromProfile } from './profile-prefill.js';
import { ProductSearchContext } from './product-search.js';
import { Violations } from './violations.js';

function SignedInDesk(props: { session: Session; onSignOut(): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [draft, setDraft] = useState<Draft>(() => emptyDraft());
  const [violations, setViolations] = useState(() => new Violations());
  const [created, setCreated] = useState<Created | undefined>(undefined);
  const [revoked, setRevoked] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  // One function per token, so the product search asks again only when the text changes.
  const token = props.session.token;
  const search = useMemo(() => (query: string) => searchProducts(query, token), [token]);
  // Whether the prescriber's fields were filled from the profile the operator set.
  const [fromProfile, setFromProfile] = useState(false);
  useEffect(() => {
    let live = true;
    fetchMe(token)
      .then((me) => {
        const profile = me.profile;
        if (!live || profile === undefined) return;
        setDraft((d) => prefillFromProfile(d, profile));
        setFromProfile(true);
      })
      .catch(() => {
        // Without the answer the desk starts empty, as it does for a prescriber without a profile.
      });
    return () => {
      live = false;
    };
  }, [token]);
  const [message, setMessage] = useState<string | undefined>(undefined);
  const [unusual, setUnusual] = useState<readonly HighDose[]>([]);
  // The links created on this page (the service keeps none), and a count that reloads the list.
  const [known, setKnown] = useState<ReadonlyMap<string, Created>>(() => new Map());
  const [listVersion, setListVersion] = useState(0);
  const worded = useMemo(
    () => violations.worded((v) => violationText(v, i18n)),
    [violations, i18n],
  );

  // A 401 reaches here only when the person declined to sign in again: the draft stays.
  const fail = (failure: unknown): void => setError(errorMessage(failure, t));

  const submit = (): void => {
    const high = highDoses(draft);
    if (high.length > 0) setUnusual(high);
    else void create();
  };

  const create = async (): Promise<void> => {
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
      <SessionBar session={props.session} expected="prescriber" onSignOut={props.onSignOut} />
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
        <ProductSearchContext.Provider value={search}>
          <PrescriptionForm
            draft={draft}
            violations={worded}
            busy={busy}
            profileNote={fromProfile ? t('desk.fromProfile') : undefined}
            onDraft={setDraft}
            onSubmit={submit}
          />
        </ProductSearchContext.Provider>
      )}
      {unusual.length > 0 && (
        <DoseConfirm
          doses={unusual}
          onConfirm={() => {
            setUnusual([]);
            void create();
          }}
          onCancel={() => setUnusual([])}
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
  // An expired token is renewed in place (a dialog): the draft and the created prescription stay.
  const { session, signedIn, signOut, dialog } = useStaffSession('prescriber');
  return (
    <>
      <h1 class="no-print">{t('desk.title')}</h1>
      {session === undefined ? (
        <SignIn role="prescriber" onSignedIn={signedIn} />
      ) : (
        <SignedInDesk session={session} onSignOut={signOut} />
      )}
      {dialog}
    </>
  );
}
