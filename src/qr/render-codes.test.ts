import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { readStackedCodes } from '../../test/support/stacked-codes.js';
import { labelBand, labelBandHeight, labelDot } from './part-label.js';
import { renderQrCodesPng, renderQrCodesSvg } from './render-codes.js';
import { renderQrPng, renderQrSvg } from './render.js';

const SIGNED = `&i=Dr.%20A%20(HIN%7Ca)&t=1795297788&s=${'ab'.repeat(64)}`;
const PARTS = [1, 2, 3].map(
  (k) => `http://localhost:8080/rx/#CHMED23A.${k}/3.${'H4sIAAAAAAAAA'.repeat(40 + k)}${SIGNED}`,
);

/** Columns of `rows` (bitonal scanlines) holding a black pixel. */
function blackColumns(rows: readonly Uint8Array[], width: number): number[] {
  const columns = new Set<number>();
  for (const row of rows) {
    for (let x = 0; x < width; x++) if (!(row[x >> 3]! & (0x80 >> (x & 7)))) columns.add(x);
  }
  return [...columns].sort((a, b) => a - b);
}

test('one link is its code alone, as render.ts draws it, in PNG and SVG', async () => {
  assert.ok((await renderQrCodesPng([PARTS[0]!], 300)).equals(await renderQrPng(PARTS[0]!, 300)));
  assert.equal(await renderQrCodesSvg([PARTS[0]!], 300), await renderQrSvg(PARTS[0]!, 300));
});

test('part links are stacked in order in one PNG, each code readable, a label under each', async () => {
  for (const width of [200, 400, 640]) {
    const png = await renderQrCodesPng(PARTS, width);
    const image = PNG.sync.read(png);
    const band = labelBandHeight(labelDot(width));
    assert.equal(image.width, width);
    assert.equal(image.height, PARTS.length * (width + band));
    assert.deepEqual(readStackedCodes(png, PARTS.length), PARTS, `at width ${width}`);
  }
});

test('a label is its text centred in the band, in black, and differs from another', () => {
  const width = 400;
  const dot = labelDot(width);
  const one = labelBand('1/3', width, dot);
  const two = labelBand('2/3', width, dot);
  assert.equal(one.length, labelBandHeight(dot));
  // Three glyphs of five dots and two gaps of one: 17 dots wide, centred ("8" fills its five).
  const columns = blackColumns(labelBand('8/8', width, dot), width);
  assert.equal(columns.at(-1)! - columns[0]! + 1, 17 * dot);
  assert.equal(columns[0], Math.floor((width - 17 * dot) / 2));
  assert.notDeepEqual(one, two);
  assert.throws(() => labelBand('1 of 3', width, dot), RangeError);
});

test('part links are stacked in order in one SVG, each code an <svg> of its own, k/N under each', async () => {
  const svg = await renderQrCodesSvg(PARTS, 300);
  const band = labelBandHeight(labelDot(300));
  const height = PARTS.length * (300 + band);
  assert.match(
    svg,
    new RegExp(`^<svg [^>]*width="300" height="${height}" viewBox="0 0 300 ${height}"`),
  );
  const placed = [...svg.matchAll(/<svg x="0" y="(\d+)" [^>]*viewBox="0 0 \d+ \d+"/g)];
  assert.deepEqual(
    placed.map((m) => Number(m[1])),
    PARTS.map((_, i) => i * (300 + band)),
  );
  assert.deepEqual(
    [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) => m[1]),
    ['1/3', '2/3', '3/3'],
  );
});
