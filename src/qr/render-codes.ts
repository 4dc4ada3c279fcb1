/**
 * The QR codes of a prescription as one image (SPEC.md §5 create, `output-format=qrcode|svg`;
 * docs/decisions.md "Several QR codes in one image"): one link is its code alone, exactly as
 * `./render.ts` draws it; the part links of a CHMED23A link too large for one code are their
 * codes stacked top to bottom, in order, each `width` pixels wide with its label `k/N` under it.
 * One image keeps create's answer one PNG or SVG, so a client that prints what it gets prints
 * every code.
 */
import { bitonalPng } from './bitonal-png.js';
import { labelBand, labelBandHeight, labelDot, partLabel } from './part-label.js';
import { qrRaster, renderQrPng, renderQrSvg } from './render.js';

/** The codes of `texts` (one link, or part links in order) as one PNG (see the file's TSDoc). */
export async function renderQrCodesPng(texts: readonly string[], width: number): Promise<Buffer> {
  if (texts.length === 1) return renderQrPng(texts[0]!, width);
  const dot = labelDot(width);
  const rasters = texts.map((text) => qrRaster(text, width));
  // Every code is `width` wide unless too dense for it; the image is as wide as the widest.
  const side = Math.max(...rasters.map((r) => r.side));
  const stride = Math.ceil(side / 8);
  const rows: Uint8Array[] = [];
  rasters.forEach((raster, i) => {
    for (let y = 0; y < raster.side; y++) {
      const line = Buffer.alloc(stride, 0xff);
      line.set(raster.row(y));
      rows.push(line);
    }
    rows.push(...labelBand(partLabel(i + 1, texts.length), side, dot));
  });
  return bitonalPng(side, rows.length, (y) => rows[y]!);
}

/** The codes of `texts` (one link, or part links in order) as one SVG (see the file's TSDoc). */
export async function renderQrCodesSvg(texts: readonly string[], width: number): Promise<string> {
  if (texts.length === 1) return renderQrSvg(texts[0]!, width);
  const band = labelBandHeight(labelDot(width));
  const codes = await Promise.all(texts.map((text) => renderQrSvg(text, width)));
  const height = texts.length * (width + band);
  const blocks = codes.map((svg, i) => {
    const top = i * (width + band);
    // Each code stays an <svg> of its own, placed at its offset: its viewBox keeps its modules.
    const placed = svg.trim().replace(/^<svg\s/, `<svg x="0" y="${top}" `);
    const baseline = top + width + Math.round(band * 0.75);
    const label =
      `<text x="${width / 2}" y="${baseline}" text-anchor="middle" font-family="sans-serif" ` +
      `font-size="${Math.round(band * 0.7)}">${partLabel(i + 1, texts.length)}</text>`;
    return placed + label;
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" ` +
    `viewBox="0 0 ${width} ${height}"><rect width="${width}" height="${height}" fill="#ffffff"/>` +
    `${blocks.join('')}</svg>\n`
  );
}
