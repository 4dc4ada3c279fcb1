/**
 * The three ways a link reaches the counter: the camera (native detector or jsQR), uploaded
 * photos or PNGs of QR codes (decoded here, never uploaded to the service), or pasted text. A
 * prescription on several QR codes (CHMED23A parts) is read code by code in any order ("2 of 4
 * read") and goes on as one link once every part is read.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { startCameraScan } from '../qr/camera-scan.js';
import type { CameraScan } from '../qr/camera-scan.js';
import { QrImagesField } from '../components/qr-images-field.js';
import { isPartText } from '../chmed/part-collector.js';
import { useI18n } from '../i18n/i18n-context.js';
import { PartsProgress, usePartCollector } from '../components/parts-progress.js';

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

  const parts = usePartCollector((link) => {
    setText(link);
    setProblem(undefined);
    props.onLink(link);
  });
  const found = (link: string): boolean => parts.read(link);

  const startCamera = async (): Promise<void> => {
    setProblem(undefined);
    setScanning(true);
    // The video element is rendered once `scanning` is set; wait for that render.
    await new Promise((resolve) => requestAnimationFrame(resolve));
    if (video.current === null) return;
    try {
      scan.current = await startCameraScan(video.current, (link) => {
        if (!found(link)) return false;
        scan.current = undefined;
        setScanning(false);
        return true;
      });
    } catch {
      setScanning(false);
      setProblem(t('counter.cameraFailed'));
    }
  };

  // Pasted text of several lines that are all parts is read part by part; anything else whole.
  const pasted = (value: string): void => {
    const lines = value
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter((line) => line !== '');
    if (lines.length > 1 && lines.every(isPartText)) for (const line of lines) found(line);
    else props.onLink(value);
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
        <QrImagesField
          id="qr-upload"
          disabled={props.busy}
          onText={(link) => void found(link)}
          onProblem={setProblem}
        />
      </div>
      {scanning && (
        <div class="camera">
          <video ref={video} aria-label={t('counter.camera')} muted playsInline />
          <p role="status">{t('counter.scanning')}</p>
        </div>
      )}
      <PartsProgress state={parts.state} onReset={parts.reset} />
      <form
        class="paste"
        onSubmit={(e) => {
          e.preventDefault();
          if (text.trim() !== '') pasted(text.trim());
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
