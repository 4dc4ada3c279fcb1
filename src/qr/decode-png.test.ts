import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PNG } from 'pngjs';
import { ErxError } from '../errors.js';
import { decodeQrCodesPng, decodeQrPng } from './decode-png.js';
import { renderQrCodesPng } from './render-codes.js';
import { renderQrPng } from './render.js';

const SIGNED = `&i=Dr.%20A%20(HIN%7Ca)&t=1795297788&s=${'ab'.repeat(64)}`;
const PARTS = [1, 2, 3].map(
  (k) => `http://localhost:8080/rx/#CHMED23A.${k}/3.${'H4sIAAAAAAAAA'.repeat(40 + k)}${SIGNED}`,
);

/** `images` (PNG) side by side, top-aligned, on white. */
function sideBySide(images: readonly Buffer[]): Buffer {
  const read = images.map((png) => PNG.sync.read(png));
  const out = new PNG({
    width: read.reduce((sum, image) => sum + image.width, 0),
    height: Math.max(...read.map((image) => image.height)),
  });
  out.data.fill(0xff);
  let left = 0;
  for (const image of read) {
    PNG.bitblt(image, out, 0, 0, image.width, image.height, left, 0);
    left += image.width;
  }
  return PNG.sync.write(out);
}

test('reads every code of a stacked image, as create draws the parts of one link', async () => {
  for (const width of [240, 480]) {
    const codes = decodeQrCodesPng(await renderQrCodesPng(PARTS, width), 100);
    assert.deepEqual([...codes].sort(), PARTS, `at width ${width}`);
  }
});

test('reads codes placed side by side, and one code alone as decodeQrPng does', async () => {
  const images = await Promise.all(PARTS.map((part) => renderQrPng(part, 300)));
  assert.deepEqual([...decodeQrCodesPng(sideBySide(images), 100)].sort(), PARTS);
  assert.deepEqual(decodeQrCodesPng(images[1]!, 100), [decodeQrPng(images[1]!)]);
});

test('stops at the most it is asked for; an image without a code is bad_request', async () => {
  assert.equal(decodeQrCodesPng(await renderQrCodesPng(PARTS, 240), 2).length, 2);
  const blank = new PNG({ width: 64, height: 64 });
  blank.data.fill(0xff);
  assert.throws(
    () => decodeQrCodesPng(PNG.sync.write(blank), 100),
    (error: unknown) => error instanceof ErxError && error.code === 'bad_request',
  );
  assert.throws(
    () => decodeQrCodesPng(Buffer.from('not a png'), 100),
    (error: unknown) => error instanceof ErxError && /not a readable PNG/.test(error.message),
  );
});
