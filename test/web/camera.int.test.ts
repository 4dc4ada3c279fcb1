/**
 * Scanning at the counter with the camera, in Chromium with a fake camera that films the
 * service's own PNG QR code: the frames are decoded in the browser (the native detector where the
 * browser has one, jsQR otherwise) and the prescription is verified.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { PNG } from 'pngjs';
import type { Browser } from 'playwright-core';
import { browserSkipReason, launchChromium, watchedContext } from '../support/browser.js';
import { json } from '../support/e2e.js';
import { samplePrescription } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';
import { screens, settlesTo, signIn } from './steps.js';

/**
 * A Y4M video (the format Chromium's fake camera plays) of a still PNG: luma from the pixels,
 * neutral chroma, a few identical frames.
 */
function y4mOf(png: PNG, frames = 3): Buffer {
  const { width, height, data } = png;
  const luma = Buffer.alloc(width * height);
  for (let i = 0; i < width * height; i++) {
    const [r, g, b] = [data[i * 4]!, data[i * 4 + 1]!, data[i * 4 + 2]!];
    luma[i] = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
  }
  const chroma = Buffer.alloc((width / 2) * (height / 2), 128);
  const header = Buffer.from(`YUV4MPEG2 W${width} H${height} F10:1 Ip A1:1 C420jpeg\n`);
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma, chroma]);
  return Buffer.concat([header, ...Array.from({ length: frames }, () => frame)]);
}

describe('web page: camera scan at the counter', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  let browser: Browser | undefined;
  let dir: string;
  let id: string;

  before(async () => {
    const answer = await server.request(
      'POST',
      '/ePrescription/create?output-format=qrcode&size=640',
      json(samplePrescription(), { token: server.doctor.token }),
    );
    assert.equal(answer.status, 200, answer.text);
    id = answer.headers.get('x-prescription-id') ?? '';
    dir = mkdtempSync(join(tmpdir(), 'erx-camera-'));
    const video = join(dir, 'qr.y4m');
    writeFileSync(video, y4mOf(PNG.sync.read(answer.bytes)));
    browser = await launchChromium([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
      `--use-file-for-fake-video-capture=${video}`,
    ]);
  });

  after(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test(
    'the camera reads the QR code and the counter verifies it',
    { timeout: 60_000 },
    async () => {
      const watched = await watchedContext(browser!, server.url);
      await watched.context.grantPermissions(['camera'], { origin: server.url });
      const { counter } = screens(watched.page);
      await watched.page.goto(`${server.url}/app/#counter`);
      await signIn(counter, server.pharmacist);
      await counter.getByRole('button', { name: 'Scan the QR code with the camera' }).click();
      await counter.getByText('Prescription verified.').waitFor({ timeout: 20_000 });
      assert.match(await counter.locator('[data-flag="valid"]').innerText(), /yes/);
      assert.match(
        await counter.locator('section[aria-labelledby="verify-title"]').innerText(),
        new RegExp(id),
      );
      // The camera is off once the code is read.
      await settlesTo(() => counter.locator('video').count(), 0);
      watched.assertClean();
      await watched.context.close();
    },
  );
});
