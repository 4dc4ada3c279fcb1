/** The language switch: three buttons, each named in its own language. */
import { useI18n } from '../i18n/i18n-context.js';
import { LANGUAGES } from '../i18n/translate.js';

export function LanguageSwitch() {
  const { lang, setLang, t } = useI18n();
  return (
    <div class="lang-switch" role="group" aria-label={t('lang.label')}>
      {LANGUAGES.map((l) => (
        <button
          type="button"
          key={l.lang}
          lang={l.lang}
          aria-pressed={l.lang === lang}
          onClick={() => setLang(l.lang)}
        >
          {l.name}
        </button>
      ))}
    </div>
  );
}
