/**
 * The staff screens at `/app/`: the pharmacy counter and the prescriber desk, chosen by the
 * fragment (`#counter`, `#desk`). Both stay mounted so switching keeps each screen's sign-in.
 */
import { useEffect, useState } from 'preact/hooks';
import { CounterPage } from '../counter/counter-page.js';
import { DeskPage } from '../desk/desk-page.js';
import { LanguageSwitch } from '../components/language-switch.js';
import { SkipLink } from '../components/skip-link.js';
import { useI18n } from '../i18n/i18n-context.js';

type Screen = 'counter' | 'desk';

// Other fragments (e.g. a field link) leave the screen as it is.
function screenOf(hash: string): Screen | undefined {
  if (hash === '#desk') return 'desk';
  if (hash === '#counter' || hash === '' || hash === '#') return 'counter';
  return undefined;
}

export function StaffApp() {
  const { t } = useI18n();
  const [screen, setScreen] = useState<Screen>(() => screenOf(location.hash) ?? 'counter');
  useEffect(() => {
    const follow = (): void => setScreen((current) => screenOf(location.hash) ?? current);
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  return (
    <>
      <SkipLink />
      <header class="top no-print">
        <p class="brand">erx</p>
        <nav aria-label={t('nav.label')}>
          <a href="#counter" aria-current={screen === 'counter' ? 'page' : undefined}>
            {t('nav.counter')}
          </a>
          <a href="#desk" aria-current={screen === 'desk' ? 'page' : undefined}>
            {t('nav.desk')}
          </a>
        </nav>
        <LanguageSwitch />
      </header>
      <main id="main" tabIndex={-1}>
        <div id="screen-counter" hidden={screen !== 'counter'}>
          <CounterPage />
        </div>
        <div id="screen-desk" hidden={screen !== 'desk'}>
          <DeskPage />
        </div>
      </main>
    </>
  );
}
