/**
 * The desk composing CHMED23A (`ERX_DOCUMENT_FORMAT=chmed23a`): it asks for the insurance card
 * number instead of the author GLN, creates a CHMED23A prescription, and a prescription too large
 * for one QR code is shown and printed as every part's code with "k of N" under each, each code
 * the part link create answered, and the same codes again when shown from the list of issued
 * prescriptions; axe finds nothing on the created state, on screen and printed.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { PNG } from 'pngjs';
import { partLinksToFit } from '../../src/link/parts.js';
import { fitsQrCode } from '../../src/qr/fits.js';
import { renderQr } from '../../web/src/qr/render.js';
import { browserSkipReason, useChromium } from '../support/browser.js';
import { noise } from '../support/chmed23a-fixtures.js';
import { assertAccessible } from '../support/axe.js';
import { useTestServer } from '../support/server.js';
import {
  SAMPLE_MEDICAMENTS,
  closeClean,
  fillMedicament,
  fillPatient,
  fillPrescriber,
  openSignedIn,
} from './steps.js';

/** Text that barely compresses: the link grows with it past one QR code. */
const NOISE = noise(700);

describe(
  'web page: the desk composes CHMED23A and prints every QR code of it',
  { skip: browserSkipReason() },
  () => {
    const server = useTestServer({
      ownPrescriptionUrl: true,
      env: { ERX_DOCUMENT_FORMAT: 'chmed23a' },
    });
    const browser = useChromium();

    test(
      'a long CHMED23A prescription prints as its parts, "1 of N" under each',
      { timeout: 90_000 },
      async () => {
        const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
        await fillPatient(desk);
        const patient = desk.getByRole('group', { name: 'Patient' });
        await patient.getByLabel('Insurance card number').fill('80756012345678901234');
        const person = desk.getByRole('group', { name: 'Prescribing person' });
        assert.equal(
          await person.getByRole('textbox', { name: 'Author GLN (13 digits)' }).count(),
          0,
        );
        await fillPrescriber(desk, false);
        for (const [i, med] of SAMPLE_MEDICAMENTS.entries()) await fillMedicament(desk, i, med);
        await desk.getByLabel('Remarks').fill(NOISE);
        await desk.getByRole('button', { name: 'Create prescription' }).click();
        await desk.locator('section.created').waitFor();
        const link = await desk.locator('#created-link').inputValue();
        assert.match(link, /#CHMED23A\./);

        const verified = await server.request('POST', '/ePrescription/verify', { body: link });
        assert.equal(verified.json.valid, true, verified.text);
        const numbers = desk.locator('.qr-part .qr-part-number');
        await numbers.first().waitFor();
        const count = await numbers.count();
        assert.ok(count >= 2, `${count} parts`);
        assert.deepEqual(
          await numbers.allInnerTexts(),
          Array.from({ length: count }, (_, i) => `${i + 1} of ${count}`),
        );
        // Each image is the code of a part link create answers; in reverse order they verify.
        const parts = partLinksToFit(link, fitsQrCode)!;
        assert.equal(parts.length, count);
        const sources = await desk
          .locator('.qr-part img')
          .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src') ?? ''));
        // The browser's PNG encoder differs from Node's: the pixels are compared.
        const pixels = (url: string): Buffer =>
          PNG.sync.read(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64')).data;
        const expected = await Promise.all(parts.map(async (p) => (await renderQr(p)).pngDataUrl));
        assert.deepEqual(sources.map(pixels), expected.map(pixels));
        const joined = await server.request('POST', '/ePrescription/verify', {
          body: JSON.stringify([...parts].reverse()),
          contentType: 'application/json',
        });
        assert.deepEqual(joined.json, verified.json);
        // No download of one image stands for several codes.
        assert.equal(await desk.getByRole('link', { name: 'Download PNG' }).count(), 0);
        await assertAccessible(page, 'desk: CHMED23A created on several QR codes');

        await page.emulateMedia({ media: 'print' });
        for (let i = 0; i < count; i++) {
          assert.equal(await desk.locator('.qr-part').nth(i).isVisible(), true, `part ${i + 1}`);
        }
        assert.equal(await numbers.nth(count - 1).isVisible(), true);
        await assertAccessible(page, 'desk: CHMED23A created on several QR codes, printed');
        await page.emulateMedia({ media: 'screen' });

        // Shown again from the list of issued prescriptions: the same part codes, in order.
        const id = (await desk.locator('section.created').getAttribute('data-prescription-id'))!;
        await desk.getByRole('button', { name: 'New prescription' }).click();
        await desk.locator('section.created').waitFor({ state: 'detached' });
        await desk
          .locator(`li[data-prescription-id="${id}"]`)
          .getByRole('button', { name: 'Show' })
          .click();
        await desk
          .locator('section.created .qr-part img')
          .nth(count - 1)
          .waitFor();
        const again = await desk
          .locator('.qr-part img')
          .evaluateAll((imgs) => imgs.map((img) => img.getAttribute('src') ?? ''));
        assert.deepEqual(again.map(pixels), expected.map(pixels));
        assert.deepEqual(
          await numbers.allInnerTexts(),
          Array.from({ length: count }, (_, i) => `${i + 1} of ${count}`),
        );
        await closeClean(watched);
      },
    );
  },
);
