/** Entry of the staff screens (pharmacy counter and prescriber desk), served at `/app/`. */
import { render } from 'preact';
import { I18nProvider } from '../i18n/i18n-context.js';
import '../styles/app.css';
import { StaffApp } from './staff-app.js';

const root = document.getElementById('app');
if (root !== null) {
  render(
    <I18nProvider titleKey="app.title">
      <StaffApp />
    </I18nProvider>,
    root,
  );
}
