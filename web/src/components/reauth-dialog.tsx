/**
 * Signing the same client in again when its token has expired: a modal dialog over the screen,
 * so that what the screen shows (a draft, a loaded prescription) stays as it is. Focus moves into
 * the dialog and back to where it was; Escape declines.
 */
import { useState } from 'preact/hooks';
import { ApiError } from '../api/http.js';
import { signIn } from '../api/session.js';
import type { Role, SignedIn } from '../api/session.js';
import { useI18n } from '../i18n/i18n-context.js';
import { CredentialFields } from './credential-fields.js';
import { errorMessage } from './error-message.js';
import { ModalDialog } from './modal-dialog.js';

export function ReauthDialog(props: {
  role: Role;
  clientId: string;
  onSignedIn(session: SignedIn): void;
  onDecline(): void;
}) {
  const { t } = useI18n();
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const id = `reauth-${props.role}`;

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const session = await signIn(props.clientId, secret);
      setSecret('');
      props.onSignedIn(session);
    } catch (failure) {
      const refused = failure instanceof ApiError && [400, 401].includes(failure.status);
      setError(refused ? t('signin.failed') : errorMessage(failure, t));
      setBusy(false);
    }
  };

  return (
    <ModalDialog
      class="reauth"
      labelledBy={`${id}-title`}
      describedBy={`${id}-text`}
      onCancel={props.onDecline}
    >
      <form onSubmit={(e) => void submit(e)}>
        <h2 id={`${id}-title`}>{t('reauth.title')}</h2>
        <p id={`${id}-text`}>{t('reauth.text')}</p>
        <CredentialFields
          id={id}
          clientId={props.clientId}
          secret={secret}
          onSecret={setSecret}
          focusSecret
          error={error}
        />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? t('common.busy') : t('reauth.submit')}
          </button>
          <button type="button" onClick={props.onDecline}>
            {t('reauth.decline')}
          </button>
        </div>
      </form>
    </ModalDialog>
  );
}
