/**
 * The desk's print of a created prescription carries a practice header (practice, address,
 * prescriber and GLN, from the document's HcOrg and HcPerson) and a line for the prescriber's
 * signature; on screen neither is shown.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSkipReason, useChromium } from '../support/browser.js';
import { useTestServer } from '../support/server.js';
import { closeClean, fillSample, openSignedIn } from './steps.js';

describe(
  'web page: the desk prints a practice header and a signature line',
  { skip: browserSkipReason() },
  () => {
    const server = useTestServer({ ownPrescriptionUrl: true });
    const browser = useChromium();

    test(
      'under print media the header and signature line show; on screen they do not',
      { timeout: 60_000 },
      async () => {
        const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
        await fillSample(desk);
        await desk.getByRole('button', { name: 'Create prescription' }).click();
        await desk.locator('section.created').waitFor();

        const header = desk.locator('.print-practice');
        const signature = desk.locator('.print-signature');
        assert.equal(await header.isVisible(), false);
        assert.equal(await signature.isVisible(), false);

        await page.emulateMedia({ media: 'print' });
        assert.equal(await header.isVisible(), true);
        const text = await header.innerText();
        assert.match(text, /Praxis am See/);
        assert.match(text, /Seestrasse 12/);
        assert.match(text, /8002 Zürich/);
        assert.match(text, /Lukas Beispiel/);
        assert.match(text, /7601001234567/);
        assert.equal(await signature.isVisible(), true);
        assert.match(await signature.innerText(), /Signature of the prescriber/);
        await page.emulateMedia({ media: 'screen' });
        await closeClean(watched);
      },
    );
  },
);
