/**
 * The page's downloadable QR code SVG (web/src/qr/render.ts) carries a size, as the service's
 * `output-format=svg` answer does (src/qr/render.test.ts): width and height, viewBox kept.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SVG_WIDTH, renderQr } from '../../web/src/qr/render.js';

const LINK = 'http://localhost:8080/rx/#CHMED16A1H4sIAAAAAAAAA&i=Dr.%20A&t=1795297788&s=abab';

function svgTag(svg: string): string {
  const tag = /<svg[^>]*>/.exec(svg)?.[0];
  assert.ok(tag, 'an <svg> element');
  return tag;
}

test("the page's downloadable SVG has width and height and its viewBox", async () => {
  const tag = svgTag((await renderQr(LINK)).svg);
  assert.match(tag, new RegExp(`\\swidth="${SVG_WIDTH}"`));
  assert.match(tag, new RegExp(`\\sheight="${SVG_WIDTH}"`));
  assert.match(tag, /\sviewBox="0 0 \d+ \d+"/);
});
