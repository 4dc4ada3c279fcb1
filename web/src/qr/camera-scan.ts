/**
 * Scans a QR code with the camera: a video preview from `getUserMedia`, frames checked a few
 * times a second by the native detector or jsQR, stopped as soon as a code is read.
 */
import { detectNative, nativeDetector } from './barcode-detector.js';
import { decodePixels } from './decode-image.js';

const FRAME_INTERVAL_MS = 200;

export interface CameraScan {
  /** Stops the camera; safe to call twice. */
  stop(): void;
}

/**
 * Starts the camera into `video` and calls `onText` with the first QR text read. Rejects when
 * the camera cannot be opened (no device, permission refused).
 */
export async function startCameraScan(
  video: HTMLVideoElement,
  onText: (text: string) => void,
): Promise<CameraScan> {
  const stream = await navigator.mediaDevices.getUserMedia({
    video: { facingMode: 'environment' },
    audio: false,
  });
  video.srcObject = stream;
  video.muted = true;
  video.playsInline = true;
  await video.play();
  const native = await nativeDetector();
  let stopped = false;
  let timer: number | undefined;

  const stop = (): void => {
    stopped = true;
    if (timer !== undefined) window.clearTimeout(timer);
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  };

  const tick = async (): Promise<void> => {
    if (stopped) return;
    if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.videoWidth > 0) {
      const text =
        native !== undefined
          ? await detectNative(video)
          : decodePixels(video, video.videoWidth, video.videoHeight);
      if (text !== undefined && !stopped) {
        stop();
        onText(text);
        return;
      }
    }
    timer = window.setTimeout(() => void tick(), FRAME_INTERVAL_MS);
  };
  void tick();
  return { stop };
}
