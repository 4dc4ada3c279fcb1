/**
 * The three ways a link reaches the counter: the camera (native detector or jsQR), an uploaded
 * photo or PNG of the QR code (decoded here, never uploaded to the service), or pasted text.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { startCameraScan } from '../qr/camera-scan.js';
import type { CameraScan } from '../qr/camera-scan.js';
import { decodeImageFile } from '../qr/decode-image.js';
import { useI18n } from '../i18n/i18n-context.js';

export function LinkSource(props: {
  busy: boolean;
  /** Move focus to the link field when shown (after "Next prescription"). */
  focus?: boolean;
  onLink(link: string): void;
}) {
  const { t } = useI18n();
  const [text, setText] = useState('');
  const [scanning, setScanning] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [reading, setReading] = useState(false);
  const video = useRef<HTMLVideoElement>(null);
  const scan = useRef<CameraScan | undefined>(undefined);
  const hasCamera = typeof navigator.mediaDevices?.getUserMedia === 'function';

  const stopCamera = (): void => {
    scan.current?.stop();
    scan.current = undefined;
    setScanning(false);
  };
  useEffect(() => stopCamera, []);
  const field = useRef<HTMLTextAreaElement>(null);
  useEffect(() => {
    if (props.focus === true) field.current?.focus();
  }, []);

  const found = (link: string): void => {
    setText(link);
    setProblem(undefined);
    props.onLink(link);
  };

  const startCamera = async (): Promise<void> => {
    setProblem(undefined);
    setScanning(true);
    // The video element is rendered once `scanning` is set; wait for that render.
    await new Promise((resolve) => requestAnimationFrame(resolve));
    if (video.current === null) return;
    try {
      scan.current = await startCameraScan(video.current, (link) => {
        scan.current = undefined;
        setScanning(false);
        found(link);
      });
    } catch {
      setScanning(false);
      setProblem(t('counter.cameraFailed'));
    }
  };

  const upload = async (input: HTMLInputElement): Promise<void> => {
    const file = input.files?.[0];
    if (file === undefined) return;
    setProblem(undefined);
    setReading(true);
    try {
      const link = await decodeImageFile(file);
      if (link === undefined) setProblem(t('counter.noQr'));
      else found(link);
    } catch {
      setProblem(t('counter.noQr'));
    } finally {
      setReading(false);
      input.value = '';
    }
  };

  return (
    <section class="card link-source" aria-labelledby="link-source-title">
      <h2 id="link-source-title">{t('counter.input')}</h2>
      <div class="source-row">
        {hasCamera &&
          (scanning ? (
            <button type="button" onClick={stopCamera}>
              {t('counter.stopScan')}
            </button>
          ) : (
            <button type="button" onClick={() => void startCamera()} disabled={props.busy}>
              {t('counter.scan')}
            </button>
          ))}
        <div class="field file-field">
          <label for="qr-upload">{t('counter.upload')}</label>
          <input
            id="qr-upload"
            type="file"
            accept="image/*"
            disabled={props.busy || reading}
            onChange={(e) => void upload(e.currentTarget)}
          />
        </div>
      </div>
      {scanning && (
        <div class="camera">
          <video ref={video} aria-label={t('counter.camera')} muted playsInline />
          <p role="status">{t('counter.scanning')}</p>
        </div>
      )}
      {reading && <p role="status">{t('counter.reading')}</p>}
      <form
        class="paste"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim() !== '') props.onLink(text.trim());
        }}
      >
        <div class="field">
          <label for="link-text">{t('counter.paste')}</label>
          <textarea
            ref={field}
            id="link-text"
            rows={3}
            spellcheck={false}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
          />
        </div>
        <button type="submit" class="primary" disabled={props.busy || text.trim() === ''}>
          {t('counter.verify')}
        </button>
      </form>
      {problem && (
        <p class="error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
