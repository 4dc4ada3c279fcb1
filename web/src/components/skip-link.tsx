/**
 * "Skip to content" for keyboard users. It moves focus without touching the fragment: the patient
 * view's fragment is the prescription itself, and the staff screens route by it.
 */
import { useI18n } from '../i18n/i18n-context.js';

export function SkipLink() {
  const { t } = useI18n();
  return (
    <a
      class="skip"
      href="#main"
      onClick={(event) => {
        event.preventDefault();
        document.getElementById('main')?.focus();
      }}
    >
      {t('app.skip')}
    </a>
  );
}
