/**
 * The patient view in Chromium (SPEC.md §3): the document is decoded from the fragment in the
 * browser, and the anonymous status answer is put in plain words, also for a link that is not
 * valid (forged: the answer says nothing of the store), a well-signed link for a prescription the
 * service does not know, and a link that carries no prescription.
 */
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { describe, test } from 'node:test';
import { encodeChmed } from '../../src/chmed16a/index.js';
import type { Prescription } from '../../src/chmed16a/index.js';
import { buildLink, formatIssuer } from '../../src/link/index.js';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import { createPrescription } from '../support/e2e.js';
import { samplePrescription } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';

/** `link` with its document part replaced by `doc` (so the signature no longer fits). */
function withDocument(link: string, doc: Record<string, unknown>): string {
  const chmed = `CHMED16A1${gzipSync(JSON.stringify(doc)).toString('base64')}`;
  return link.replace(/#CHMED16A1[^&]+/, `#${chmed}`);
}

describe('web page: patient view', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  test('a new prescription is valid; the document never goes to the server for display', async () => {
    const { link } = await createPrescription(server);
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    const posted: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST') posted.push(`${new URL(r.url()).pathname} ${r.postData()}`);
    });
    await page.goto(link);
    await page.locator('[data-state="valid"]').waitFor();
    assert.match(
      await page.locator('[role="status"]').innerText(),
      /Valid until \d{2}\.\d{2}\.\d{4}: this prescription can be dispensed/,
    );
    assert.equal(await page.locator('li.medicament').count(), 2);
    // The only call is the anonymous status, with the link as the body.
    assert.deepEqual(posted, [`/ePrescription/status ${link}`]);
    watched.assertClean();
    await watched.context.close();
  });

  test('the language follows the browser (German, French)', async () => {
    const { link } = await createPrescription(server);
    for (const [locale, valid, morning] of [
      ['de-CH', 'Gültig', 'Morgen'],
      ['fr-CH', 'Valable', 'Matin'],
    ] as const) {
      const watched = await watchedContext(browser(), server.url, locale);
      const { page } = watched;
      await page.goto(link);
      await page.locator('[data-state="valid"]').waitFor();
      assert.match(await page.locator('[data-state="valid"]').innerText(), new RegExp(valid));
      assert.equal(await page.locator('table.dosage th').first().innerText(), morning);
      watched.assertClean();
      await watched.context.close();
    }
  });

  test('a changed document is not confirmed, and its content is still shown', async () => {
    const { id, link } = await createPrescription(server);
    const changed = withDocument(link, samplePrescription({ Id: id, Rmk: 'geändert' }));
    const watched = await watchedContext(browser(), server.url);
    await watched.page.goto(changed);
    const status = watched.page.locator('[data-state="invalid"]');
    await status.waitFor();
    assert.match(await status.innerText(), /Not confirmed/);
    assert.match(await watched.page.locator('.remarks').innerText(), /geändert/);
    watched.assertClean();
    await watched.context.close();
  });

  test('an unknown prescription, a link without a prescription, and none at all', async () => {
    const { link } = await createPrescription(server);
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    // A forged link says nothing of the store (SPEC.md §10): not confirmed, known or not.
    await page.goto(withDocument(link, samplePrescription()));
    await page.locator('[data-state="invalid"]').waitFor();

    // A well-signed link the service has no prescription for is one it does not know.
    watched.expectRefusal(404);
    const unknown = buildLink({
      prescriptionUrl: `${server.url}/rx/`,
      chmed: encodeChmed(samplePrescription() as unknown as Prescription),
      issuer: formatIssuer(server.doctor.name, server.doctor.sub),
      issuedAt: Math.floor(Date.now() / 1000),
      keyring: server.runtime.linkKeys,
    });
    await page.goto(unknown);
    await page.locator('[data-state="unknown"]').waitFor();

    await page.goto(`${server.url}/rx/#CHMED16A1AAAA&i=x&t=1&s=00`);
    await page
      .getByRole('alert')
      .filter({ hasText: 'does not contain a readable prescription' })
      .waitFor();

    await page.goto(`${server.url}/rx/`);
    await page.getByText('Scan the QR code of your prescription').waitFor();
    watched.assertClean();
    await watched.context.close();
  });
});
