/**
 * The client ID and secret fields and the refusal under them, shared by the sign-in form and the
 * dialog that signs the same client in again (there the client ID is fixed and read-only).
 */
import { useI18n } from '../i18n/i18n-context.js';

/** Labelled client ID and secret inputs with ids under `id`, and `error` as an alert. */
export function CredentialFields(props: {
  id: string;
  clientId: string;
  /** Without it the client ID is read-only. */
  onClientId?: ((value: string) => void) | undefined;
  secret: string;
  onSecret(value: string): void;
  /** Focus the secret on mount (the client ID is already known). */
  focusSecret?: boolean;
  error: string | undefined;
}) {
  const { t } = useI18n();
  const { id, onClientId } = props;
  return (
    <>
      <div class="field">
        <label for={`${id}-client`}>{t('signin.clientId')}</label>
        <input
          id={`${id}-client`}
          name="client_id"
          autoComplete="username"
          required={onClientId !== undefined}
          readOnly={onClientId === undefined}
          value={props.clientId}
          onInput={onClientId && ((e) => onClientId(e.currentTarget.value))}
        />
      </div>
      <div class="field">
        <label for={`${id}-secret`}>{t('signin.secret')}</label>
        <input
          id={`${id}-secret`}
          name="client_secret"
          type="password"
          autoComplete="current-password"
          required
          autoFocus={props.focusSecret}
          value={props.secret}
          onInput={(e) => props.onSecret(e.currentTarget.value)}
        />
      </div>
      {props.error && (
        <p class="error" role="alert">
          {props.error}
        </p>
      )}
    </>
  );
}
