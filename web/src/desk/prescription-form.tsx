/** The prescriber's form composing a CHMED16A prescription (seed §2.1). */
import { useEffect, useState } from 'preact/hooks';
import { useI18n } from '../i18n/i18n-context.js';
import type { I18n } from '../i18n/i18n-context.js';
import { emptyMedicament } from './draft.js';
import type { Draft, MedicamentDraft } from './draft.js';
import { SelectField, TextArea, TextField } from './field.js';
import { CARD_NUMBER_FIELD, ORG_FIELDS, PATIENT_FIELDS, PERSON_FIELDS } from './field-labels.js';
import type { FieldSpec } from './field-labels.js';
import { MedicamentFieldset } from './medicament-fieldset.js';
import { localDate, plausibility } from './plausibility.js';
import { ViolationSummary } from './violation-summary.js';
import { controlId } from './violations.js';
import type { Violations } from './violations.js';

type Warn = (pointer: string) => readonly string[];

/** The plausibility warnings of `draft` by pointer, translated. */
function warner(draft: Draft, t: I18n['t']): Warn {
  const warnings = plausibility(draft, localDate(new Date()));
  return (pointer) => (warnings.get(pointer) ?? []).map((w) => t(w.key, w.params));
}

function Fields<K extends string>(props: {
  section: string;
  specs: readonly FieldSpec[];
  values: Record<K, string>;
  violations: Violations;
  warn: Warn;
  onValue(name: K, value: string): void;
}) {
  const { t } = useI18n();
  return (
    <>
      {props.specs.map((spec) => (
        <TextField
          key={spec.name}
          pointer={`/${props.section}/${spec.name}`}
          label={t(spec.label)}
          required={spec.required}
          type={spec.type}
          inputMode={spec.inputMode}
          maxLength={spec.maxLength}
          hint={spec.hint && t(spec.hint)}
          violations={props.violations}
          warnings={props.warn(`/${props.section}/${spec.name}`)}
          value={props.values[spec.name as K]}
          onValue={(value) => props.onValue(spec.name as K, value)}
        />
      ))}
    </>
  );
}

export function PrescriptionForm(props: {
  draft: Draft;
  violations: Violations;
  busy: boolean;
  /** The release the document is composed in: CHMED23A asks for the insurance card number too. */
  format: 'CHMED16A' | 'CHMED23A';
  /** Says where the prescriber's fields came from, when they were filled in for the person. */
  profileNote?: string | undefined;
  onDraft(draft: Draft): void;
  /** `unreadable`: pointers of controls holding text the browser cannot read as their type. */
  onSubmit(unreadable: readonly string[]): void;
}) {
  const { t } = useI18n();
  const { draft, violations } = props;
  // After a medicament is removed, focus goes to the product ID of the one before it.
  const [focusMed, setFocusMed] = useState<number | undefined>(undefined);
  useEffect(() => {
    if (focusMed === undefined) return;
    setFocusMed(undefined);
    document.getElementById(controlId(`/Medicaments/${focusMed}/Id`))?.focus();
  }, [focusMed]);
  const warn = warner(draft, t);
  const set = (change: Partial<Draft>): void => props.onDraft({ ...draft, ...change });
  const setMed = (index: number, change: Partial<MedicamentDraft>): void =>
    set({
      medicaments: draft.medicaments.map((m, i) => (i === index ? { ...m, ...change } : m)),
    });

  return (
    <form
      class="desk-form"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const unreadable = [...e.currentTarget.querySelectorAll('input')]
          .filter((input) => input.validity.badInput)
          .map((input) => input.dataset['pointer'] ?? '');
        props.onSubmit(unreadable);
      }}
    >
      <ViolationSummary violations={violations} />
      <fieldset class="card">
        <legend>{t('desk.patient')}</legend>
        <div class="grid">
          <Fields
            section="Patient"
            specs={PATIENT_FIELDS}
            values={draft.patient}
            violations={violations}
            warn={warn}
            onValue={(name, value) => set({ patient: { ...draft.patient, [name]: value } })}
          />
          <SelectField
            pointer="/Patient/Gender"
            label={t('desk.gender')}
            violations={violations}
            value={draft.patient.Gender}
            onValue={(Gender) => set({ patient: { ...draft.patient, Gender } })}
            options={[
              { value: '', label: t('desk.gender.none') },
              { value: '2', label: t('doc.gender.2') },
              { value: '1', label: t('doc.gender.1') },
            ]}
          />
          {props.format === 'CHMED23A' && (
            <Fields
              section="Patient"
              specs={[CARD_NUMBER_FIELD]}
              values={draft.patient}
              violations={violations}
              warn={warn}
              onValue={(name, value) => set({ patient: { ...draft.patient, [name]: value } })}
            />
          )}
        </div>
      </fieldset>
      <fieldset class="card">
        <legend>{t('desk.person')}</legend>
        {props.profileNote !== undefined && <p class="notice">{props.profileNote}</p>}
        <div class="grid">
          <Fields
            section="HcPerson"
            specs={PERSON_FIELDS}
            values={draft.person}
            violations={violations}
            warn={warn}
            onValue={(name, value) => set({ person: { ...draft.person, [name]: value } })}
          />
          {/* CHMED23A names the author by the prescriber's GLN (`auth` 1), not a second GLN. */}
          {props.format === 'CHMED16A' && (
            <TextField
              pointer="/Auth"
              label={t('desk.auth')}
              hint={t('desk.authHint')}
              required
              inputMode="numeric"
              maxLength={13}
              violations={violations}
              warnings={warn('/Auth')}
              value={draft.auth}
              onValue={(auth) => set({ auth })}
            />
          )}
        </div>
      </fieldset>
      <fieldset class="card">
        <legend>{t('desk.org')}</legend>
        <div class="grid">
          <Fields
            section="HcOrg"
            specs={ORG_FIELDS}
            values={draft.org}
            violations={violations}
            warn={warn}
            onValue={(name, value) => set({ org: { ...draft.org, [name]: value } })}
          />
        </div>
      </fieldset>
      <fieldset class="card">
        <legend>{t('desk.meds')}</legend>
        {violations.at('/Medicaments').length > 0 && (
          <p class="field-error">{violations.at('/Medicaments').join('; ')}</p>
        )}
        {draft.medicaments.map((med, i) => (
          <MedicamentFieldset
            key={i}
            index={i}
            med={med}
            violations={violations}
            warn={warn}
            canRemove={draft.medicaments.length > 1}
            onChange={(change) => setMed(i, change)}
            onRemove={() => {
              set({ medicaments: draft.medicaments.filter((_, j) => j !== i) });
              setFocusMed(Math.max(0, i - 1));
            }}
          />
        ))}
        <button
          type="button"
          onClick={() => set({ medicaments: [...draft.medicaments, emptyMedicament()] })}
        >
          {t('desk.addMed')}
        </button>
      </fieldset>
      <div class="card">
        <TextArea
          pointer="/Rmk"
          label={t('desk.remarks')}
          violations={violations}
          value={draft.remarks}
          onValue={(remarks) => set({ remarks })}
        />
      </div>
      <div class="actions">
        <button type="submit" class="primary" disabled={props.busy}>
          {props.busy ? t('common.busy') : t('desk.create')}
        </button>
      </div>
    </form>
  );
}
