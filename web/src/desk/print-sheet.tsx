/**
 * The parts of a printed prescription around its QR code and content: the practice header (from
 * the document's HcOrg and HcPerson, whatever of them is filled in) with the sheet's title, and a
 * line for the prescriber's signature. Both are shown in print only (`print-sheet.css`).
 */
import type { DocumentView } from '../chmed/document-view.js';
import { useI18n } from '../i18n/i18n-context.js';
import './print-sheet.css';

function join(...parts: (string | undefined)[]): string {
  return parts.filter((p) => p !== undefined && p !== '').join(' ');
}

/** The practice, its address and contacts, and the prescriber with GLN, at the top of the print. */
export function PrintHeader(props: { doc: DocumentView }) {
  const { t, date } = useI18n();
  const { organisation: org, prescriber: person, issued } = props.doc;
  const name = person && join(person.firstName, person.lastName);
  const place = org && join(org.zip, org.city);
  return (
    <header class="print-only print-practice">
      {org?.name && <p class="print-practice-name">{org.name}</p>}
      {org?.affix && <p>{org.affix}</p>}
      {org?.street && <p>{org.street}</p>}
      {place && <p>{place}</p>}
      {(org?.phone || org?.email) && <p>{join(org.phone, org.email)}</p>}
      {name && (
        <p class="print-practice-person">
          {name}
          {person?.gln && ` · ${t('doc.gln')} ${person.gln}`}
        </p>
      )}
      {issued && (
        <p>
          {t('doc.issued')}
          {t('list.colon')}
          {date(issued)}
        </p>
      )}
      {/* The printed sheet's one heading: the desk's own title is not printed. */}
      <h1 class="print-title">{t('print.title')}</h1>
    </header>
  );
}

/** Place and date, and a line for the prescriber's signature, at the end of the print. */
export function PrintSignature(props: { doc: DocumentView }) {
  const { t } = useI18n();
  const person = props.doc.prescriber;
  const name = person && join(person.firstName, person.lastName);
  return (
    <div class="print-only print-signature">
      <div class="print-signature-field">
        <span class="print-signature-line" aria-hidden="true" />
        <span>{t('print.placeDate')}</span>
      </div>
      <div class="print-signature-field">
        <span class="print-signature-line" aria-hidden="true" />
        <span>
          {t('print.signature')}
          {name && ` (${name})`}
        </span>
      </div>
    </div>
  );
}
