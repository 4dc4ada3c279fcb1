/**
 * The desk's smaller cares, in Chromium: focus follows the work (a removed medicament, a revoke,
 * a new prescription), a started draft is not lost without a question, a revoked prescription is
 * headed as such, a dose is written back as typed (`12,5` in German), a fully dispensed
 * prescription is not offered for revocation, and each GLN field says whose GLN it is.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSkipReason, useChromium } from '../support/browser.js';
import { calls, createPrescription } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import {
  SAMPLE_MEDICAMENTS,
  closeClean,
  fillMedicament,
  fillPatient,
  fillPrescriber,
  fillSample,
  focusedId,
  focusedText,
  openSignedIn,
  settlesTo,
  signIn,
} from './steps.js';

describe('web page: the desk’s smaller cares', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  test(
    'focus follows a removed medicament, the safe choice of a revoke, a revoke and a new prescription',
    { timeout: 60_000 },
    async () => {
      const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
      await fillSample(desk);
      await desk.getByRole('button', { name: 'Remove medicament 2' }).click();
      await settlesTo(() => focusedId(page), 'f-Medicaments-0-Id');

      await desk.getByRole('button', { name: 'Create prescription' }).click();
      await desk.locator('section.created').waitFor();
      await desk.getByRole('button', { name: 'Revoke prescription' }).click();
      // The question focuses the safe choice: Enter must not revoke by accident.
      await settlesTo(() => focusedText(page), 'No, keep it');
      await desk.getByRole('button', { name: 'Yes, revoke' }).click();
      // The heading says what happened and takes focus; the notice is said once.
      await desk.getByRole('heading', { name: 'Prescription revoked', level: 2 }).waitFor();
      await settlesTo(() => focusedId(page), 'created-title');
      assert.equal(await desk.getByRole('heading', { name: 'Prescription created' }).count(), 0);
      assert.equal(await desk.locator('[data-state="revoked"]').count(), 1);
      await settlesTo(() => desk.locator('.live').first().innerText(), '');

      await desk.getByRole('button', { name: 'New prescription' }).click();
      await settlesTo(() => focusedId(page), 'f-Patient-FName');
      await closeClean(watched);
    },
  );

  test(
    'a started draft asks before a reload or a sign-out loses it',
    { timeout: 60_000 },
    async () => {
      const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
      // Nothing started: signing out asks nothing.
      await desk.getByRole('button', { name: 'Sign out' }).click();
      await desk.getByRole('button', { name: 'Sign in' }).waitFor();
      await signIn(desk, server.doctor);

      await fillPatient(desk);
      const firstName = desk.getByRole('group', { name: 'Patient' }).getByLabel('First name');
      const asked: string[] = [];
      page.on('dialog', (dialog) => {
        asked.push(dialog.type());
        void dialog.dismiss();
      });
      // Leaving the page asks through the browser; staying keeps the draft.
      await page.close({ runBeforeUnload: true });
      await settlesTo(async () => asked, ['beforeunload']);
      assert.equal(page.isClosed(), false);
      assert.equal(await firstName.inputValue(), 'Anna');

      const leave = page.getByRole('alertdialog', {
        name: 'Discard the prescription being written?',
      });
      await desk.getByRole('button', { name: 'Sign out' }).click();
      await leave.getByRole('button', { name: 'Stay and keep the entries' }).click();
      await settlesTo(() => leave.count(), 0);
      assert.equal(await firstName.inputValue(), 'Anna');
      await desk.getByRole('button', { name: 'Sign out' }).click();
      await leave.getByRole('button', { name: 'Sign out and discard' }).click();
      await desk.getByRole('button', { name: 'Sign in' }).waitFor();
      await closeClean(watched);
    },
  );

  test(
    'in German a dose is written back as typed, its unit apart',
    { timeout: 60_000 },
    async () => {
      const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
      await fillPatient(desk);
      await fillPrescriber(desk);
      await fillMedicament(desk, 0, { ...SAMPLE_MEDICAMENTS[0]!, doses: ['12,5', '', '', ''] });
      await page
        .getByRole('group', { name: 'Language' })
        .getByRole('button', { name: 'Deutsch' })
        .click();
      await desk.getByRole('button', { name: 'Rezept ausstellen' }).click();
      const item = page
        .getByRole('alertdialog')
        .locator('li[data-pointer="/Medicaments/0/Pos/0/D/0"]');
      assert.equal(await item.innerText(), 'Medikament 1, Morgen: 12,5 (Einheit: Tablette)');
      await closeClean(watched);
    },
  );

  test(
    'a fully dispensed prescription is not offered for revocation',
    { timeout: 60_000 },
    async () => {
      const open = await createPrescription(server);
      const done = await createPrescription(server);
      const full = await calls(server).full(done.id)();
      assert.equal(full.status, 200, full.text);
      const { watched, desk } = await openSignedIn(browser(), server.url, server.doctor);
      const row = (id: string) => desk.locator(`li[data-prescription-id="${id}"]`);
      await settlesTo(() => row(done.id).getAttribute('data-list-state'), 'dispensed');
      assert.equal(await row(done.id).getByRole('button', { name: 'Revoke' }).count(), 0);
      assert.equal(await row(open.id).getByRole('button', { name: 'Revoke' }).count(), 1);
      await closeClean(watched);
    },
  );

  test('at 390 × 844 no state of the desk scrolls sideways', { timeout: 90_000 }, async () => {
    await createPrescription(server);
    const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
    await page.setViewportSize({ width: 390, height: 844 });
    const sideways = () =>
      page.locator('html').evaluate((html) => html.scrollWidth - html.clientWidth);
    const states: Record<string, number> = {};
    const check = async (state: string): Promise<void> => {
      states[state] = await sideways();
    };
    await check('empty form and list');
    await fillSample(desk);
    await desk
      .getByRole('group', { name: 'Medicament 1', exact: true })
      .getByLabel('Packs')
      .fill('0');
    await desk.getByRole('button', { name: 'Create prescription' }).click();
    await desk.locator('#f-Medicaments-0-NbPack-error').waitFor();
    await check('a value refused at its field');
    await desk
      .getByRole('group', { name: 'Medicament 1', exact: true })
      .getByLabel('Packs')
      .fill('1');
    await desk
      .getByRole('group', { name: 'Medicament 1', exact: true })
      .getByLabel('Product ID')
      .fill('76805');
    await desk.getByRole('button', { name: 'Create prescription' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Check before issuing' });
    await dialog.waitFor();
    await check('the confirmation');
    await dialog.getByRole('button', { name: 'Yes, create as entered' }).click();
    await desk.locator('section.created').getByRole('img').waitFor();
    await desk.locator('li[data-remembered="true"]').waitFor();
    await check('created, with remembered and unknown rows');
    await desk.getByRole('button', { name: 'Revoke prescription' }).click();
    await desk.getByRole('button', { name: 'Yes, revoke' }).click();
    await desk.getByRole('heading', { name: 'Prescription revoked' }).waitFor();
    await check('revoked');
    assert.deepEqual(states, Object.fromEntries(Object.keys(states).map((state) => [state, 0])));
    await closeClean(watched);
  });

  test('each GLN field says whose GLN it is', { timeout: 60_000 }, async () => {
    const { watched, desk } = await openSignedIn(browser(), server.url, server.doctor);
    const person = desk.getByRole('group', { name: 'Prescribing person' });
    const hints: string[] = [];
    for (const name of ['GLN (13 digits)', 'Author GLN (13 digits)']) {
      const field = person.getByRole('textbox', { name, exact: true });
      const describedBy = (await field.getAttribute('aria-describedby')) ?? '';
      const hint = describedBy.split(' ').find((id) => id.endsWith('-hint'));
      assert.ok(hint, `${name}: ${describedBy}`);
      hints.push(await desk.locator(`#${hint}`).innerText());
    }
    assert.match(hints[0]!, /your own GLN/i);
    assert.match(hints[1]!, /practice/);
    await closeClean(watched);
  });
});
