/**
 * The prescriber desk and the staff screens in Chromium: the service's violations next to the
 * fields, the three languages, keyboard use, creation and revocation, and the patient view of a
 * revoked prescription.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import { useTestServer } from '../support/server.js';
import { closeClean, fillSample, openSignedIn, screens, settlesTo } from './steps.js';

describe('web page: prescriber desk', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  test(
    'an empty form comes back with every violation at its field',
    { timeout: 60_000 },
    async () => {
      const { watched, desk } = await openSignedIn(browser(), server.url, server.doctor);
      watched.expectRefusal(400);
      await desk.getByRole('button', { name: 'Create prescription' }).click();
      const summary = desk.getByRole('alert');
      await summary.waitFor();
      const text = await summary.innerText();
      for (const field of [
        'Patient, First name',
        'Patient, Last name',
        'Patient, Date of birth',
        'Author GLN (13 digits)',
        'Medicament 1, Product ID',
      ]) {
        assert.ok(text.includes(`${field}: is required`), `${field} in:\n${text}`);
      }
      const firstName = desk.getByRole('group', { name: 'Patient' }).getByLabel('First name');
      assert.equal(await firstName.getAttribute('aria-invalid'), 'true');
      assert.equal(await firstName.getAttribute('aria-required'), 'true');
      const describedBy = await firstName.getAttribute('aria-describedby');
      assert.equal(await desk.locator(`#${describedBy}`).innerText(), 'is required');
      // The summary's link moves focus to the field.
      await summary.getByRole('link', { name: 'Patient, First name' }).click();
      assert.equal(await firstName.evaluate((el) => el.matches(':focus')), true);
      assert.equal(new URL(watched.page.url()).hash, '#desk', 'the screen stays');
      await closeClean(watched);
    },
  );

  test('German, French and English', { timeout: 60_000 }, async () => {
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    const { desk } = screens(page);
    await page.goto(`${server.url}/app/#desk`);
    const languages = page.getByRole('group', { name: 'Language' });
    const lang = () => page.locator('html').getAttribute('lang');
    await languages.getByRole('button', { name: 'Deutsch' }).click();
    await settlesTo(lang, 'de');
    await desk.getByRole('heading', { name: 'Verordnung', level: 1 }).waitFor();
    await desk.getByRole('button', { name: 'Anmelden' }).waitFor();
    await page
      .getByRole('group', { name: 'Sprache' })
      .getByRole('button', { name: 'Français' })
      .click();
    await settlesTo(lang, 'fr');
    await desk.getByRole('heading', { name: 'Prescription', level: 1 }).waitFor();
    await desk.getByLabel('Secret client').waitFor();
    await settlesTo(
      () => page.getByRole('button', { name: 'Français' }).getAttribute('aria-pressed'),
      'true',
    );
    // The choice is remembered for the next visit.
    await page.reload();
    await settlesTo(lang, 'fr');
    await page
      .getByRole('group', { name: 'Langue' })
      .getByRole('button', { name: 'English' })
      .click();
    await desk.getByRole('heading', { name: 'Prescriber desk', level: 1 }).waitFor();
    await closeClean(watched);
  });

  test('keyboard only: skip link, sign-in, screens', { timeout: 60_000 }, async () => {
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    const { counter } = screens(page);
    await page.goto(`${server.url}/app/`);
    await page.keyboard.press('Tab');
    assert.equal(await page.locator(':focus').textContent(), 'Skip to content');
    await page.keyboard.press('Enter');
    assert.equal(await page.locator(':focus').getAttribute('id'), 'main');
    await page.keyboard.press('Tab');
    await page.keyboard.type(server.pharmacist.clientId);
    await page.keyboard.press('Tab');
    await page.keyboard.type(server.pharmacist.secret);
    await page.keyboard.press('Enter');
    await counter.getByText(`Signed in as ${server.pharmacist.name}`).waitFor();
    await closeClean(watched);
  });

  test(
    'create, revoke after confirming, and the patient view says revoked',
    { timeout: 90_000 },
    async () => {
      const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
      await fillSample(desk);
      await desk.getByRole('button', { name: 'Create prescription' }).click();
      const created = desk.locator('section.created');
      await created.waitFor();
      const id = await created.getAttribute('data-prescription-id');
      await settlesTo(() => page.locator(':focus').getAttribute('id'), 'created-title');

      const [svg] = await Promise.all([
        page.waitForEvent('download'),
        desk.getByRole('link', { name: 'Download SVG' }).click(),
      ]);
      assert.equal(svg.suggestedFilename(), `erx-${id}.svg`);

      await desk.getByRole('button', { name: 'Revoke prescription' }).click();
      const confirm = desk.getByRole('alertdialog');
      await confirm.getByRole('button', { name: 'No, keep it' }).click();
      await settlesTo(() => confirm.count(), 0);
      await desk.getByRole('button', { name: 'Revoke prescription' }).click();
      await desk.getByRole('button', { name: 'Yes, revoke' }).click();
      await desk.locator('[data-state="revoked"]').waitFor();
      assert.equal(await desk.getByRole('button', { name: 'Revoke prescription' }).count(), 0);

      const [patient] = await Promise.all([
        watched.context.waitForEvent('page'),
        desk.getByRole('link', { name: 'Open patient view' }).click(),
      ]);
      const status = patient.locator('[data-state="revoked"]');
      await status.waitFor();
      assert.match(await status.innerText(), /Revoked/);

      // The prescriber keeps the practice for the next prescription; the patient is cleared.
      await desk.getByRole('button', { name: 'New prescription' }).click();
      const org = desk.getByRole('group', { name: 'Practice or organisation' });
      const patientGroup = desk.getByRole('group', { name: 'Patient' });
      await settlesTo(() => patientGroup.getByLabel('First name').inputValue(), '');
      assert.equal(
        await org.getByRole('textbox', { name: 'Name', exact: true }).inputValue(),
        'Praxis am See',
      );
      await closeClean(watched);
    },
  );
});
