/**
 * The patient view says what it can about packages left and validity. The anonymous verify answer
 * (SPEC.md §5, the short variant) holds no `expires_at` and no remaining packages, and the
 * validity depends on the service's configuration, so the page does not guess them: an open
 * prescription says that the pharmacy sees both; a completely dispensed one says none are left.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import { calls, createPrescription } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import { closeClean } from './steps.js';

describe(
  'web page: patient view, packages left and validity',
  { skip: browserSkipReason() },
  () => {
    const server = useTestServer({ ownPrescriptionUrl: true });
    const browser = useChromium();

    test('open: the pharmacy sees what is left and until when; dispensed: none left', async () => {
      const { id, link } = await createPrescription(server);
      const watched = await watchedContext(browser(), server.url);
      const { page } = watched;
      await page.goto(link);
      await page.locator('[data-state="valid"]').waitFor();
      const note = page.locator('[data-note="remaining"]');
      assert.match(await note.innerText(), /packages are left.*until when/);
      assert.equal(await page.locator('[data-fact="remaining"]').count(), 0);

      const answer = await calls(server).full(id)();
      assert.equal(answer.status, 200);
      await page.reload();
      await page.locator('[data-state="dispensed"]').waitFor();
      assert.equal(await page.locator('[data-fact="remaining"] dd').innerText(), 'none');
      assert.equal(await note.count(), 0);
      await closeClean(watched);
    });
  },
);
