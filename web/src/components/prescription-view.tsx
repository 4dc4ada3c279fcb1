/**
 * A decoded prescription, readable: patient, prescriber, each medicament with its dosage,
 * repeats, packs and substitution, and the remarks. Shared by the patient view and the counter.
 */
import type { ComponentChildren } from 'preact';
import type { DocumentView, MedicamentView } from '../chmed/document-view.js';
import { useI18n } from '../i18n/i18n-context.js';
import { DosageTable } from './dosage-table.js';
import { spanText } from './posology-text.js';
import { MedicamentName } from './product-names.js';

function Row(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="row">
      <dt>{props.label}</dt>
      <dd>{props.children}</dd>
    </div>
  );
}

function join(...parts: (string | undefined)[]): string {
  return parts.filter((p) => p !== undefined && p !== '').join(' ');
}

function Medicament(props: { med: MedicamentView }) {
  const i18n = useI18n();
  const { t, number } = i18n;
  const m = props.med;
  return (
    <li class="medicament" data-medicament-id={m.id}>
      <h3>
        <MedicamentName id={m.id} idType={m.idType} />
      </h3>
      <DosageTable dosages={m.dosages} unit={m.unit} />
      <dl class="facts">
        {m.instructions && <Row label={t('med.instructions')}>{m.instructions}</Row>}
        {m.reason && <Row label={t('med.reason')}>{m.reason}</Row>}
        <Row label={t('med.packs')}>{m.packs === undefined ? '–' : number(m.packs)}</Row>
        <Row label={t('med.repeats')}>{m.repeats === undefined ? '–' : number(m.repeats)}</Row>
        {m.repeatFor && <Row label={t('med.repeatFor')}>{spanText(i18n, m.repeatFor)}</Row>}
        <Row label={t('med.substitution')}>
          <span class={m.substitutionAllowed ? 'subs-yes' : 'subs-no'}>
            {t(m.substitutionAllowed ? 'med.subsAllowed' : 'med.subsNotAllowed')}
          </span>
        </Row>
      </dl>
    </li>
  );
}

/** Shows the document `doc`. */
export function PrescriptionView(props: { doc: DocumentView }) {
  const { t, date } = useI18n();
  const { patient, prescriber, organisation } = props.doc;
  const gender =
    patient.gender === 1 ? t('doc.gender.1') : patient.gender === 2 ? t('doc.gender.2') : undefined;
  return (
    <div class="prescription">
      <div class="cards">
        <section class="card" aria-labelledby="doc-patient">
          <h2 id="doc-patient">{t('doc.patient')}</h2>
          <p class="name">{join(patient.firstName, patient.lastName)}</p>
          <dl class="facts">
            {patient.birthDate && <Row label={t('doc.born')}>{date(patient.birthDate)}</Row>}
            {gender && <Row label={t('doc.gender')}>{gender}</Row>}
            {(patient.street || patient.city) && (
              <Row label={t('doc.address')}>
                {join(patient.street && `${patient.street},`, patient.zip, patient.city)}
              </Row>
            )}
          </dl>
        </section>
        <section class="card" aria-labelledby="doc-prescriber">
          <h2 id="doc-prescriber">{t('doc.prescriber')}</h2>
          {prescriber && <p class="name">{join(prescriber.firstName, prescriber.lastName)}</p>}
          <dl class="facts">
            {prescriber?.gln && <Row label={t('doc.gln')}>{prescriber.gln}</Row>}
            {organisation && (
              <Row label={t('doc.organisation')}>
                {join(organisation.name, organisation.affix && `(${organisation.affix})`)}
                <br />
                {join(
                  organisation.street && `${organisation.street},`,
                  organisation.zip,
                  organisation.city,
                )}
              </Row>
            )}
            {organisation?.phone && <Row label={t('doc.phone')}>{organisation.phone}</Row>}
            {organisation?.email && <Row label={t('doc.email')}>{organisation.email}</Row>}
            {props.doc.issued && <Row label={t('doc.issued')}>{date(props.doc.issued)}</Row>}
          </dl>
        </section>
      </div>
      <section aria-labelledby="doc-meds">
        <h2 id="doc-meds">{t('doc.medicaments')}</h2>
        <ul class="medicaments">
          {props.doc.medicaments.map((m, i) => (
            <Medicament key={`${i}-${m.id}`} med={m} />
          ))}
        </ul>
      </section>
      {props.doc.remarks && (
        <section class="card" aria-labelledby="doc-remarks">
          <h2 id="doc-remarks">{t('doc.remarks')}</h2>
          <p class="remarks">{props.doc.remarks}</p>
        </section>
      )}
    </div>
  );
}
