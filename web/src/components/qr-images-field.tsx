/**
 * The upload field for photos or PNGs of QR codes, several at once (the codes of a prescription
 * on several): each image is decoded here, in turn, never uploaded to the service.
 */
import { useState } from 'preact/hooks';
import { useI18n } from '../i18n/i18n-context.js';
import { decodeImageFile } from '../qr/decode-image.js';

export function QrImagesField(props: {
  id: string;
  disabled: boolean;
  /** The text of each code found, in the order of the images. */
  onText(text: string): void;
  /** The problem to show: undefined as reading starts, a message for an image with no code. */
  onProblem(problem: string | undefined): void;
}) {
  const { t } = useI18n();
  const [reading, setReading] = useState(false);
  const upload = async (input: HTMLInputElement): Promise<void> => {
    const files = [...(input.files ?? [])];
    if (files.length === 0) return;
    props.onProblem(undefined);
    setReading(true);
    try {
      for (const file of files) {
        const text = await decodeImageFile(file).catch(() => undefined);
        if (text === undefined) props.onProblem(t('counter.noQr'));
        else props.onText(text);
      }
    } finally {
      setReading(false);
      input.value = '';
    }
  };
  return (
    <>
      <div class="field file-field">
        <label for={props.id}>{t('counter.upload')}</label>
        <input
          id={props.id}
          type="file"
          accept="image/*"
          multiple
          disabled={props.disabled || reading}
          onChange={(e) => void upload(e.currentTarget)}
        />
      </div>
      {reading && <p role="status">{t('counter.reading')}</p>}
    </>
  );
}
