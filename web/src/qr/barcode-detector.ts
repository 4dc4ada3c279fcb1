/**
 * The browser's own QR decoder (`BarcodeDetector`, Shape Detection API) where it exists. It is
 * not in TypeScript's DOM library, so its small surface is declared here.
 */

interface DetectedBarcode {
  rawValue: string;
}

interface BarcodeDetectorInstance {
  detect(source: ImageBitmapSource): Promise<DetectedBarcode[]>;
}

interface BarcodeDetectorConstructor {
  new (options: { formats: string[] }): BarcodeDetectorInstance;
  getSupportedFormats(): Promise<string[]>;
}

let detector: Promise<BarcodeDetectorInstance | undefined> | undefined;

async function create(): Promise<BarcodeDetectorInstance | undefined> {
  const ctor = (globalThis as { BarcodeDetector?: BarcodeDetectorConstructor }).BarcodeDetector;
  if (ctor === undefined) return undefined;
  try {
    const formats = await ctor.getSupportedFormats();
    return formats.includes('qr_code') ? new ctor({ formats: ['qr_code'] }) : undefined;
  } catch {
    return undefined;
  }
}

/** The native QR detector, or undefined when this browser has none. */
export function nativeDetector(): Promise<BarcodeDetectorInstance | undefined> {
  detector ??= create();
  return detector;
}

/** The text of the first QR code the native detector finds in `source`, if any. */
export async function detectNative(source: ImageBitmapSource): Promise<string | undefined> {
  const native = await nativeDetector();
  if (native === undefined) return undefined;
  try {
    const [first] = await native.detect(source);
    return first?.rawValue;
  } catch {
    return undefined;
  }
}
