/**
 * Reading the QR codes of a prescription from images on the patient's device (a photo, or a
 * screenshot). A prescription on several codes is read code by
 * code, in any order.
 */
import { useState } from 'preact/hooks';
import { PartsProgress } from '../components/parts-progress.js';
import type { PartCollector } from '../components/parts-progress.js';
import { useI18n } from '../i18n/i18n-context.js';
import { QrImagesField } from '../components/qr-images-field.js';

export function PatientCodes(props: { parts: PartCollector }) {
  const { t } = useI18n();
  const [problem, setProblem] = useState<string | undefined>(undefined);
  return (
    <section class="card patient-codes" aria-labelledby="patient-codes-title">
      <h2 id="patient-codes-title">{t('patient.scan')}</h2>
      <p class="muted">{t('patient.scan.hint')}</p>
      <QrImagesField
        id="patient-qr-upload"
        disabled={false}
        onText={(text) => void props.parts.read(text)}
        onProblem={setProblem}
      />
      <PartsProgress state={props.parts.state} onReset={props.parts.reset} />
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
