/**
 * The desk finds what it issued: its list is newest first; each row it issued in this browser
 * shows the patient's initials and the products (remembered here, never by the service), a row
 * issued elsewhere says it is not known here, and the QR code of an open prescription shows and
 * prints again after a reload, until the prescriber has it forgotten.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { browserSkipReason, useChromium } from '../support/browser.js';
import { createPrescription } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import {
  SAMPLE_MEDICAMENTS,
  closeClean,
  fillSample,
  issuedIds,
  openSignedIn,
  settlesTo,
  signIn,
} from './steps.js';

/** The service dates an issue to the second: waits until the clock has passed `ms`'s second. */
async function nextSecond(ms: number): Promise<void> {
  const second = Math.floor(ms / 1000);
  await settlesTo(async () => Math.floor(Date.now() / 1000) > second, true);
}

async function create(desk: Locator): Promise<string> {
  await desk.getByRole('button', { name: 'Create prescription' }).click();
  const created = desk.locator('section.created');
  await created.waitFor();
  return (await created.getAttribute('data-prescription-id')) ?? '';
}

describe('web page: the desk remembers what it issued', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  test(
    'newest first with initials and products; the QR code again after a reload; forgotten',
    { timeout: 90_000 },
    async () => {
      const elsewhere = await createPrescription(server);
      const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
      await fillSample(desk);
      const first = await create(desk);
      await nextSecond(Date.now());
      await desk.getByRole('button', { name: 'New prescription' }).click();
      await fillSample(desk);
      const patient = desk.getByRole('group', { name: 'Patient' });
      await patient.getByLabel('First name').fill('beat');
      await patient.getByLabel('Last name').fill('Keller');
      const second = await create(desk);

      const list = desk.getByRole('region', { name: 'Issued prescriptions' });
      const row = (id: string) => list.locator(`li[data-prescription-id="${id}"]`);
      await settlesTo(() => issuedIds(desk), [second, first, elsewhere.id]);
      assert.equal(await row(second).locator('.issued-initials').innerText(), 'B. K.');
      assert.equal(await row(first).locator('.issued-initials').innerText(), 'A. M.');
      const products = await row(first).locator('.issued-products li').allInnerTexts();
      assert.deepEqual(
        products.map((p) => /\d{13}/.exec(p)?.[0]),
        SAMPLE_MEDICAMENTS.map((m) => m.id),
      );
      assert.equal(await row(elsewhere.id).getAttribute('data-remembered'), 'false');
      await row(elsewhere.id).locator('.issued-unknown').waitFor();
      assert.equal(await row(elsewhere.id).getByRole('button', { name: 'Show' }).count(), 0);

      // Nothing is kept by the service: after a reload the browser still knows, and shows the
      // QR code of the first one again, ready to print.
      await page.reload();
      await signIn(desk, server.doctor);
      await settlesTo(() => issuedIds(desk), [second, first, elsewhere.id]);
      assert.equal(await row(first).locator('.issued-initials').innerText(), 'A. M.');
      await row(first).getByRole('button', { name: 'Show' }).click();
      const shown = desk.locator(`section.created[data-prescription-id="${first}"]`);
      await shown.getByRole('img').waitFor();
      await page.emulateMedia({ media: 'print' });
      assert.match(await shown.locator('.print-practice').innerText(), /Praxis am See/);
      await page.emulateMedia({ media: 'screen' });

      // Forgotten on this computer: the row no longer knows the patient or the products.
      await row(first).getByRole('button', { name: 'Forget on this computer' }).click();
      await settlesTo(() => row(first).getAttribute('data-remembered'), 'false');
      assert.equal(await row(first).getByRole('button', { name: 'Show' }).count(), 0);
      await page.reload();
      await signIn(desk, server.doctor);
      await row(second).locator('.issued-initials').waitFor();
      assert.equal(await row(first).getAttribute('data-remembered'), 'false');
      await closeClean(watched);
    },
  );
});
