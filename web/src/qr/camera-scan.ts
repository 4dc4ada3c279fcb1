/**
 * Scans QR codes with the camera: a video preview from `getUserMedia`, frames checked a few
 * times a second by the native detector or jsQR, stopped as soon as the code read is all that is
 * needed (one of several parts keeps the camera on for the next; the same code is read once).
 */
import { detectNative, nativeDetector } from './barcode-detector.js';
import { decodePixels } from './decode-image.js';

const FRAME_INTERVAL_MS = 200;

export interface CameraScan {
  /** Stops the camera; safe to call twice. */
  stop(): void;
}

/**
 * Starts the camera into `video` and calls `onText` with each new QR text read, until it answers
 * true (then the camera stops). Rejects when the camera cannot be opened (no device, permission
 * refused).
 */
export async function startCameraScan(
  video: HTMLVideoElement,
  onText: (text: string) => boolean,
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
  let last: string | undefined;

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
      if (text !== undefined && text !== last && !stopped) {
        last = text;
        if (onText(text)) {
          stop();
          return;
        }
      }
    }
    timer = window.setTimeout(() => void tick(), FRAME_INTERVAL_MS);
  };
  void tick();
  return { stop };
}
