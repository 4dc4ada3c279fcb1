/** The patient view (SPEC.md §3): the prescription of the link, decoded here, and its status. */
import { LanguageSwitch } from '../components/language-switch.js';
import { PrescriptionView } from '../components/prescription-view.js';
import { ProductNames } from '../components/product-names.js';
import { SkipLink } from '../components/skip-link.js';
import { useI18n } from '../i18n/i18n-context.js';
import { PatientStatus } from './patient-status.js';
import { useDecodedLocation } from './use-decoded-link.js';
import { useStatus } from './use-status.js';

export function PatientPage() {
  const { t } = useI18n();
  const decoded = useDecodedLocation();
  const { answer, retry } = useStatus(decoded.state === 'ok' ? decoded.link : undefined);
  return (
    <>
      <SkipLink />
      <header class="top">
        <p class="brand">erx</p>
        <LanguageSwitch />
      </header>
      <main id="main" tabIndex={-1}>
        <h1>{t('patient.title')}</h1>
        {decoded.state === 'none' && <p class="notice">{t('patient.noLink')}</p>}
        {decoded.state === 'bad' && (
          <p class="notice notice-bad" role="alert">
            {t('patient.badLink')}
          </p>
        )}
        {decoded.state === 'ok' && (
          <>
            <ProductNames medicaments={decoded.doc.medicaments}>
              <PatientStatus answer={answer} retry={retry} medicaments={decoded.doc.medicaments} />
              <PrescriptionView doc={decoded.doc} />
            </ProductNames>
          </>
        )}
        <p class="privacy muted">{t('patient.privacy')}</p>
      </main>
    </>
  );
}
