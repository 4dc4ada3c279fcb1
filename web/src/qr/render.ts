/**
 * Renders a prescription link as a QR code in the browser, with the service's settings (level M,
 * four modules of quiet zone: `src/qr/render.ts`), for display, printing and download.
 */
import QRCode from 'qrcode';

const OPTIONS = { errorCorrectionLevel: 'M', margin: 4 } as const;

/** Width of the downloadable PNG: several pixels per module even for a long link. */
export const PNG_WIDTH = 1024;

/**
 * Width and height of the downloadable SVG, in pixels: a vector image still needs a size, or
 * programs that place it (word processors, label printers) guess one. Its viewBox stays in modules.
 */
export const SVG_WIDTH = 440;

export interface RenderedQr {
  /** `data:image/png;base64,…`, PNG_WIDTH pixels wide. */
  readonly pngDataUrl: string;
  /** The SVG document, SVG_WIDTH pixels wide and high. */
  readonly svg: string;
}

/** Renders `link` as PNG (data URL) and SVG. */
export async function renderQr(link: string): Promise<RenderedQr> {
  const [pngDataUrl, svg] = await Promise.all([
    QRCode.toDataURL(link, { ...OPTIONS, type: 'image/png', width: PNG_WIDTH }),
    QRCode.toString(link, { ...OPTIONS, type: 'svg', width: SVG_WIDTH }),
  ]);
  return { pngDataUrl, svg };
}
