/** Sign-in with client credentials for one screen; the token stays in memory (SPEC.md §5). */
import { useState } from 'preact/hooks';
import { signIn } from '../api/session.js';
import type { Role, Session } from '../api/session.js';
import { useI18n } from '../i18n/i18n-context.js';
import { CredentialFields } from './credential-fields.js';
import { errorMessage } from './error-message.js';
import { ApiError } from '../api/http.js';

export function SignIn(props: {
  role: Role;
  notice?: string | undefined;
  onSignedIn(session: Session): void;
}) {
  const { t } = useI18n();
  const [clientId, setClientId] = useState('');
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const id = `signin-${props.role}`;

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const session = await signIn(clientId.trim(), secret);
      setSecret('');
      props.onSignedIn(session);
    } catch (failure) {
      const status = failure instanceof ApiError ? failure.status : undefined;
      // 404: the token endpoint is absent because an external token service is configured.
      setError(
        status === 401 || status === 400
          ? t('signin.failed')
          : status === 404
            ? t('signin.unavailable')
            : errorMessage(failure, t),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="card sign-in" onSubmit={(e) => void submit(e)} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{t(`signin.title.${props.role}`)}</h2>
      {props.notice && (
        <p class="notice" role="status">
          {props.notice}
        </p>
      )}
      <CredentialFields
        id={id}
        clientId={clientId}
        onClientId={setClientId}
        secret={secret}
        onSecret={setSecret}
        error={error}
      />
      <button type="submit" class="primary" disabled={busy}>
        {busy ? t('common.busy') : t('signin.submit')}
      </button>
      <p class="muted small">{t('signin.hint')}</p>
    </form>
  );
}
