/** One medicament of the prescriber's form: product, dosage morning to night, packs, repeats. */
import { useI18n } from '../i18n/i18n-context.js';
import { hasDosage } from './draft.js';
import type { MedicamentDraft } from './draft.js';
import { CheckField, SelectField, TextField } from './field.js';
import { PACKS, REPEATS } from './field-checks.js';
import { ProductSearch } from './product-search.js';
import { controlId } from './violations.js';
import type { Violations } from './violations.js';

const SLOTS = ['med.morning', 'med.noon', 'med.evening', 'med.night'] as const;

export function MedicamentFieldset(props: {
  index: number;
  med: MedicamentDraft;
  violations: Violations;
  /** The plausibility warnings at a pointer, in the page's language. */
  warn(pointer: string): readonly string[];
  canRemove: boolean;
  onChange(change: Partial<MedicamentDraft>): void;
  onRemove(): void;
}) {
  const { t } = useI18n();
  const { med, violations, index } = props;
  const at = `/Medicaments/${index}`;
  const doseGroup = [...violations.at(`${at}/Pos`), ...violations.at(`${at}/Pos/0/D`)];
  const doseGroupId = `${controlId(`${at}/Pos/0/D`)}-error`;
  const doseHintId = `${controlId(`${at}/Pos/0/D`)}-hint`;
  return (
    <fieldset class="medicament-fields" data-index={index}>
      <legend>{t('desk.med', { n: index + 1 })}</legend>
      <ProductSearch
        index={index}
        id={med.id}
        onPick={(a) => props.onChange({ id: a.gtin, idType: '2' })}
      />
      <div class="grid">
        <TextField
          pointer={`${at}/Id`}
          label={t('desk.medId')}
          required
          violations={violations}
          warnings={props.warn(`${at}/Id`)}
          value={med.id}
          onValue={(id) => props.onChange({ id })}
        />
        <SelectField
          pointer={`${at}/IdType`}
          label={t('desk.idType')}
          violations={violations}
          value={med.idType}
          onValue={(idType) => props.onChange({ idType })}
          options={[
            { value: '2', label: t('med.idType.2') },
            { value: '3', label: t('med.idType.3') },
            { value: '1', label: t('med.idType.1') },
          ]}
        />
        <TextField
          pointer={`${at}/Unit`}
          label={t('desk.unit')}
          required={hasDosage(med)}
          violations={violations}
          value={med.unit}
          onValue={(unit) => props.onChange({ unit })}
        />
      </div>
      <fieldset
        class="doses"
        aria-describedby={[doseHintId, ...(doseGroup.length > 0 ? [doseGroupId] : [])].join(' ')}
      >
        <legend>{t('desk.dosage')}</legend>
        <p class="muted small" id={doseHintId}>
          {t('desk.doseHint')}
        </p>
        <div class="grid doses-grid">
          {SLOTS.map((slot, k) => (
            <TextField
              key={slot}
              class="narrow"
              pointer={`${at}/Pos/0/D/${k}`}
              label={t(slot)}
              // Text, not number: a number field drops the decimal comma of `0,5` (de, fr).
              inputMode="decimal"
              violations={violations}
              warnings={props.warn(`${at}/Pos/0/D/${k}`)}
              value={med.doses[k] ?? ''}
              onValue={(value) => {
                const doses = [...med.doses] as MedicamentDraft['doses'];
                doses[k] = value;
                props.onChange({ doses });
              }}
            />
          ))}
        </div>
        <TextField
          class="until"
          pointer={`${at}/Pos/0/DtTo`}
          label={t('desk.until')}
          type="date"
          violations={violations}
          warnings={props.warn(`${at}/Pos/0/DtTo`)}
          value={med.until}
          onValue={(until) => props.onChange({ until })}
        />
        {doseGroup.length > 0 && (
          <p class="field-error" id={doseGroupId}>
            {doseGroup.join('; ')}
          </p>
        )}
      </fieldset>
      <div class="grid">
        <TextField
          pointer={`${at}/AppInstr`}
          label={t('desk.instructions')}
          violations={violations}
          value={med.instructions}
          onValue={(instructions) => props.onChange({ instructions })}
        />
        <TextField
          class="narrow"
          pointer={`${at}/NbPack`}
          label={t('desk.packs')}
          required
          type="number"
          inputMode="numeric"
          min={PACKS.min}
          max={PACKS.max}
          step={1}
          violations={violations}
          value={med.packs}
          onValue={(packs) => props.onChange({ packs })}
        />
        <TextField
          class="narrow"
          pointer={`${at}/Rep`}
          label={t('desk.repeats')}
          type="number"
          inputMode="numeric"
          min={REPEATS.min}
          max={REPEATS.max}
          step={1}
          violations={violations}
          value={med.repeats}
          onValue={(repeats) => props.onChange({ repeats })}
        />
        <CheckField
          pointer={`${at}/Subs`}
          label={t('desk.subsAllowed')}
          violations={violations}
          checked={med.substitutionAllowed}
          onChecked={(substitutionAllowed) => props.onChange({ substitutionAllowed })}
        />
      </div>
      {props.canRemove && (
        <button type="button" class="small-button" onClick={props.onRemove}>
          {t('desk.removeMed', { n: index + 1 })}
        </button>
      )}
    </fieldset>
  );
}
