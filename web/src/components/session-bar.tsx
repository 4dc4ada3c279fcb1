/** Who is signed in on this screen, with a warning when the role does not fit it. */
import type { Role, Session } from '../api/session.js';
import { useI18n } from '../i18n/i18n-context.js';

export function SessionBar(props: { session: Session; expected: Role; onSignOut(): void }) {
  const { t } = useI18n();
  const { name, sub, role } = props.session;
  const label = name !== undefined && sub ? `${name} (${sub})` : (name ?? '');
  return (
    <div class="session-bar">
      <p>
        {!name
          ? t('session.unknown')
          : role === undefined
            ? t('session.as', { name: label })
            : // The role in the page's language, so no text depends on how the name begins.
              t('session.asRole', { name: label, role: t(`role.${role}`) })}
      </p>
      {role !== undefined && role !== props.expected && (
        <p class="notice notice-warn" role="status">
          {t('signin.wrongRole', { role: t(`role.${role}`) })}
        </p>
      )}
      <button type="button" onClick={props.onSignOut}>
        {t('session.signOut')}
      </button>
    </div>
  );
}
