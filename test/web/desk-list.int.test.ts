/**
 * The desk reaches earlier prescriptions: the list of the practice's prescriptions (only the
 * signed-in prescriber's), narrowed by state, and revocation from the list after a confirmation;
 * a revoked prescription shows as revoked and its QR code can no longer be shown, printed or
 * downloaded.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import { createPrescription } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import { fillSample, focusedId, focusedText, screens, settlesTo, signIn } from './steps.js';

describe('web page: the desk’s list of prescriptions', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  test(
    'lists the prescriber’s prescriptions and revokes from the list',
    { timeout: 60_000 },
    async () => {
      const earlier = await createPrescription(server);
      const someoneElses = await createPrescription(server, undefined, server.doctor2);
      const watched = await watchedContext(browser(), server.url);
      const { page } = watched;
      const { desk } = screens(page);
      await page.goto(`${server.url}/app/#desk`);
      await signIn(desk, server.doctor);
      const list = desk.getByRole('region', { name: 'Issued prescriptions' });
      const row = (id: string) => list.locator(`li[data-prescription-id="${id}"]`);
      const listed = () =>
        list
          .locator('li[data-prescription-id]')
          .evaluateAll((items) =>
            items.map((li) => li.getAttribute('data-prescription-id') ?? '').sort(),
          );
      // The one issued before this page was opened is there; another prescriber's is not.
      await row(earlier.id).waitFor();
      assert.equal(await row(someoneElses.id).count(), 0);

      // A new one appears in the list as open.
      await fillSample(desk);
      await desk.getByRole('button', { name: 'Create prescription' }).click();
      const created = desk.locator('section.created');
      await created.waitFor();
      const id = (await created.getAttribute('data-prescription-id')) ?? '';
      await settlesTo(listed, [earlier.id, id].sort());
      assert.equal(await row(id).getAttribute('data-list-state'), 'open');
      await desk.getByRole('link', { name: 'Download PNG' }).waitFor();

      // Revoke from the list: nothing happens before the confirmation.
      await row(id).getByRole('button', { name: 'Revoke' }).click();
      const dialog = page.getByRole('alertdialog', { name: `Revoke prescription ${id}?` });
      await dialog.waitFor();
      // The safe choice has the focus: Enter must not revoke by accident.
      await settlesTo(() => focusedText(page), 'No, keep it');
      await dialog.getByRole('button', { name: 'No, keep it' }).click();
      assert.equal(await row(id).getAttribute('data-list-state'), 'open');
      await row(id).getByRole('button', { name: 'Revoke' }).click();
      await dialog.getByRole('button', { name: 'Yes, revoke' }).click();
      await settlesTo(() => row(id).getAttribute('data-list-state'), 'revoked');
      // Its revoke button is gone: focus stays on the row, not on the page's body.
      await settlesTo(() => focusedId(page), `issued-${id}-head`);
      assert.match(await row(id).innerText(), /Revoked/);
      assert.equal(await row(id).getByRole('button', { name: 'Revoke' }).count(), 0);

      // The prescription on the screen is revoked too: no QR code, no print, no download.
      await created.locator('[data-state="revoked"]').waitFor();
      for (const name of ['Download PNG', 'Download SVG']) {
        assert.equal(await desk.getByRole('link', { name }).count(), 0, name);
      }
      assert.equal(await desk.getByRole('button', { name: 'Print' }).count(), 0);
      assert.equal(await created.getByRole('img').count(), 0);
      const verify = await server.request('POST', '/ePrescription/verify', {
        body: earlier.link,
        contentType: 'text/plain',
      });
      assert.equal(verify.json.revoked, false, 'the other one stays as it was');

      // Narrowed by state.
      await list.getByLabel('Show').selectOption('revoked');
      await settlesTo(listed, [id]);
      await list.getByLabel('Show').selectOption('open');
      await settlesTo(listed, [earlier.id]);
      watched.assertClean();
      await watched.context.close();
    },
  );
});
