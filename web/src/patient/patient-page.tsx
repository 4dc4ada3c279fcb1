/** The patient view (SPEC.md §3): the prescription of the link, decoded here, and its status. */
import { ForeignDocument } from '../components/foreign-document.js';
import { LanguageSwitch } from '../components/language-switch.js';
import { PrescriptionView } from '../components/prescription-view.js';
import { ProductNames } from '../components/product-names.js';
import { SkipLink } from '../components/skip-link.js';
import { useI18n } from '../i18n/i18n-context.js';
import { PatientCodes } from './patient-codes.js';
import { PatientStatus } from './patient-status.js';
import { useDecodedLocation } from './use-decoded-link.js';
import { useStatus } from './use-status.js';

export function PatientPage() {
  const { t } = useI18n();
  const { decoded, parts } = useDecodedLocation();
  // Codes are read here while there is no prescription yet, or only some of its parts.
  const asking = decoded.state === 'none' || parts.state.collected !== undefined;
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
        {decoded.state === 'none' && parts.state.collected === undefined && (
          <p class="notice">{t('patient.noLink')}</p>
        )}
        {asking && <PatientCodes parts={parts} />}
        {decoded.state === 'bad' && (
          <p class="notice notice-bad" role="alert">
            {t('patient.badLink')}
          </p>
        )}
        {decoded.state === 'foreign' && (
          <ForeignDocument foreign={decoded.foreign} doc={decoded.doc}>
            <p class="notice notice-warn">{t('patient.foreign')}</p>
          </ForeignDocument>
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
