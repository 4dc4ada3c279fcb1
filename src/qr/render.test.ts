import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PNG } from 'pngjs';
import { decodeQrPng } from './decode-png.js';
import { renderQrPng, renderQrSvg } from './render.js';

const LINK = `http://localhost:8080/rx/#CHMED16A1${'H4sIAAAAAAAAA'.repeat(60)}&i=Dr.%20A%20(HIN%7Ca)&t=1795297788&s=${'ab'.repeat(64)}`;

test('the PNG reads back at every size from 64 to 1200 pixels, padded to the width', async () => {
  let checked = 0;
  for (let size = 64; size <= 1200; size += 25) {
    const png = await renderQrPng(LINK, size);
    assert.equal(decodeQrPng(png), LINK, `size ${size}`);
    checked += 1;
  }
  console.log(`qr sizes checked: ${checked}`);
});

test('the PNG is exactly the requested width when the code fits', async () => {
  for (const size of [300, 400, 777, 1000]) {
    const image = PNG.sync.read(await renderQrPng(LINK, size));
    assert.deepEqual([image.width, image.height], [size, size]);
  }
});

test('the SVG is as wide and high as the requested size and keeps its viewBox', async () => {
  for (const size of [200, 512]) {
    const tag = /<svg[^>]*>/.exec(await renderQrSvg(LINK, size))?.[0] ?? '';
    assert.match(tag, new RegExp(`\\swidth="${size}"`));
    assert.match(tag, new RegExp(`\\sheight="${size}"`));
    assert.match(tag, /\sviewBox="0 0 \d+ \d+"/);
  }
});
