/** The prescriber desk (SPEC.md §1 prescribers): compose, create, show the QR code, revoke. */
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { partLinksToFit } from '../../../src/link/parts.js';
import { fitsQrCode } from '../../../src/qr/fits.js';
import { searchProducts } from '../api/catalog.js';
import { ApiError } from '../api/http.js';
import { fetchMe } from '../api/me.js';
import * as api from '../api/prescriptions.js';
import type { Session } from '../api/session.js';
import { newUuid } from '../api/uuid.js';
import { decodeLink } from '../chmed/decode-link.js';
import { errorMessage } from '../components/error-message.js';
import { SessionBar } from '../components/session-bar.js';
import { SignIn } from '../components/sign-in.js';
import { useStaffSession } from '../components/use-staff-session.js';
import { useI18n } from '../i18n/i18n-context.js';
import { violationText } from '../i18n/service-text.js';
import { CreatedPanel } from './created-panel.js';
import type { Created } from './created-panel.js';
import { emptyDraft, isStarted } from './draft.js';
import { composeDocument } from './draft-chmed23a.js';
import type { DocumentFormat } from './draft-chmed23a.js';
import type { Draft } from './draft.js';
import { fieldProblemKey, fieldProblems } from './field-checks.js';
import { IssueConfirm, hasFindings } from './issue-confirm.js';
import type { Findings } from './issue-confirm.js';
import { IssuedList } from './issued-list.js';
import type { Shown } from './issued-list.js';
import { initialsOf } from './issued-memory.js';
import { LeaveDraft, useLeaveWarning } from './leave-draft.js';
import { highDoses, localDate, toConfirm } from './plausibility.js';
import { PrescriptionForm } from './prescription-form.js';
import { prefillFromProfile } from './profile-prefill.js';
import { ProductSearchContext } from './product-search.js';
import { useIssuedMemory } from './use-issued-memory.js';
import { Violations, controlId } from './violations.js';

const NOTHING: Findings = { doses: [], others: [] };

function SignedInDesk(props: { session: Session; onSignOut(): void }) {
  const i18n = useI18n();
  const { t } = i18n;
  const [draft, setDraft] = useState<Draft>(() => emptyDraft());
  const [violations, setViolations] = useState(() => new Violations());
  const [created, setCreated] = useState<Created | undefined>(undefined);
  const [revoked, setRevoked] = useState(false);
  // Shown again from the list: a fully dispensed prescription is not offered for revocation.
  const [dispensed, setDispensed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  // One function per token, so the product search asks again only when the text changes.
  const token = props.session.token;
  const search = useMemo(() => (query: string) => searchProducts(query, token), [token]);
  // Whether the prescriber's fields were filled from the profile the operator set.
  const [fromProfile, setFromProfile] = useState(false);
  // The release the operator chose (`ERX_DOCUMENT_FORMAT`); CHMED16A until the service says.
  const [format, setFormat] = useState<DocumentFormat>('CHMED16A');
  useEffect(() => {
    let live = true;
    fetchMe(token)
      .then((me) => {
        if (live) setFormat(me.document_format);
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
  const [findings, setFindings] = useState<Findings>(NOTHING);
  // What this browser remembers of what the prescriber issued (the service keeps no link).
  const { remembered, ...memory } = useIssuedMemory(props.session.clientId);
  const [listVersion, setListVersion] = useState(0);
  const [leaving, setLeaving] = useState(false);
  // After "new prescription", focus goes to the patient's first name.
  const focusForm = useRef(false);
  useEffect(() => {
    if (created !== undefined || !focusForm.current) return;
    focusForm.current = false;
    document.getElementById(controlId('/Patient/FName'))?.focus();
  }, [created]);
  const started = created === undefined && isStarted(draft);
  useLeaveWarning(started);
  const worded = useMemo(
    () =>
      violations.worded((v) => {
        // The desk's own refusals at the field (field-checks.ts) carry their bounds.
        const key = fieldProblemKey(v);
        if (key === undefined) return violationText(v, i18n);
        const { min, max } = v.params;
        return i18n.t(key, {
          min: typeof min === 'number' ? i18n.number(min) : '',
          max: typeof max === 'number' ? i18n.number(max) : '',
        });
      }),
    [violations, i18n],
  );

  // A 401 reaches here only when the person declined to sign in again: the draft stays.
  const fail = (failure: unknown): void => setError(errorMessage(failure, t));

  // Impossible values are refused at their fields; unusual ones are confirmed once, all together.
  const submit = (unreadable: readonly string[]): void => {
    const problems = fieldProblems(draft, unreadable);
    if (problems.length > 0) {
      setError(undefined);
      setViolations(new Violations(problems));
      return;
    }
    const found = { doses: highDoses(draft), others: toConfirm(draft, localDate(new Date())) };
    if (hasFindings(found)) setFindings(found);
    else void create();
  };

  const create = async (): Promise<void> => {
    setBusy(true);
    setError(undefined);
    setMessage(undefined);
    // A fresh UUID per prescription: ids must be unguessable (SPEC.md §4).
    const composed = composeDocument(format, draft, newUuid(), new Date());
    try {
      const answer = await api.create(composed.doc, props.session.token);
      setViolations(new Violations());
      setRevoked(false);
      setDispensed(false);
      const made: Created = {
        id: answer.prescription_id,
        link: answer.SignedPrescriptionData,
        parts: answer.SignedPrescriptionParts,
        doc: composed.view,
      };
      setCreated(made);
      memory.remember({
        id: made.id,
        at: new Date().toISOString(),
        initials: initialsOf(draft.patient.FName, draft.patient.LName),
        meds: made.doc.medicaments.map((m) => ({ id: m.id, idType: m.idType })),
        link: made.link,
      });
      setListVersion((n) => n + 1);
    } catch (failure) {
      const listed = failure instanceof ApiError ? failure.body?.violations : undefined;
      const placed = listed?.map((v) => ({ ...v, path: composed.pointer(v.path) }));
      if (placed && placed.length > 0) setViolations(new Violations(placed));
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
      // The panel's heading and notice say it; no second announcement.
      setRevoked(true);
      memory.dropLink(created.id);
      setListVersion((n) => n + 1);
    } catch (failure) {
      fail(failure);
    } finally {
      setBusy(false);
    }
  };

  // Shows a listed prescription again, from this page or from the browser's memory of its link.
  const show = async (shown: Shown): Promise<void> => {
    const link = remembered.find((r) => r.id === shown.id)?.link;
    if (link === undefined) return;
    const decoded = await decodeLink(link);
    if (decoded.state !== 'ok') return;
    // A CHMED23A link too large for one code is shown as create answered it: as its parts.
    const parts = partLinksToFit(link, fitsQrCode);
    setCreated({ id: shown.id, link, parts, doc: decoded.doc });
    setRevoked(shown.revoked);
    setDispensed(shown.dispensed);
    setMessage(undefined);
  };

  return (
    <>
      <SessionBar
        session={props.session}
        expected="prescriber"
        onSignOut={() => (started ? setLeaving(true) : props.onSignOut())}
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
          canRevoke={!dispensed}
          busy={busy}
          onRevoke={() => void revoke()}
          onNew={() => {
            focusForm.current = true;
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
            format={format}
            profileNote={fromProfile ? t('desk.fromProfile') : undefined}
            onDraft={setDraft}
            onSubmit={submit}
          />
        </ProductSearchContext.Provider>
      )}
      {hasFindings(findings) && (
        <IssueConfirm
          findings={findings}
          onConfirm={() => {
            setFindings(NOTHING);
            void create();
          }}
          onCancel={() => setFindings(NOTHING)}
        />
      )}
      {leaving && (
        <LeaveDraft
          onLeave={() => {
            setLeaving(false);
            props.onSignOut();
          }}
          onStay={() => setLeaving(false)}
        />
      )}
      <IssuedList
        token={props.session.token}
        version={listVersion}
        remembered={remembered}
        onShow={(shown) => void show(shown)}
        onRevoked={(id) => {
          if (created?.id === id) setRevoked(true);
        }}
        onClosed={(id) => {
          // Revoked, fully dispensed or expired: its QR code is no longer needed here.
          memory.dropLink(id);
        }}
        onForget={(id) => {
          memory.forget(id);
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
