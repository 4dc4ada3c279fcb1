/** Entry of the patient view, served at the prescription address (SPEC.md §3). */
import { render } from 'preact';
import { I18nProvider } from '../i18n/i18n-context.js';
import '../styles/app.css';
import { PatientPage } from './patient-page.js';

const root = document.getElementById('app');
if (root !== null) {
  render(
    <I18nProvider titleKey="patient.title">
      <PatientPage />
    </I18nProvider>,
    root,
  );
}
