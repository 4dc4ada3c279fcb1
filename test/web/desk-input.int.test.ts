/**
 * The desk's input in Chromium: a dose typed with a decimal comma is issued as that number, an
 * implausibly high dose asks for confirmation before anything is issued, and plausibility
 * warnings (GLN check digit, birth date in the future) appear next to their field and are
 * confirmed before the prescription is issued.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSkipReason, useChromium } from '../support/browser.js';
import { useTestServer } from '../support/server.js';
import {
  SAMPLE_MEDICAMENTS,
  closeClean,
  createdDocument,
  fillMedicament,
  fillPatient,
  fillPrescriber,
  openSignedIn,
  settlesTo,
} from './steps.js';

describe('web page: the desk reads doses and warns in place', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  test(
    '0,5 is issued as 0.5; 50 at one time of day asks first and is corrected',
    { timeout: 60_000 },
    async () => {
      const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
      await fillPatient(desk);
      await fillPrescriber(desk);
      await fillMedicament(desk, 0, { ...SAMPLE_MEDICAMENTS[0]!, doses: ['', '0', '1', '0'] });
      await fillMedicament(desk, 1, { ...SAMPLE_MEDICAMENTS[1]!, doses: ['0', '0', '50', '0'] });
      const morning = desk
        .getByRole('group', { name: 'Medicament 1', exact: true })
        .getByLabel('Morning', { exact: true });
      // Typed key by key as a person does; the field keeps it (a number field showed `05`).
      await morning.pressSequentially('0,5');
      assert.equal(await morning.inputValue(), '0,5');

      await desk.getByRole('button', { name: 'Create prescription' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Confirm unusual doses' });
      await dialog.waitFor();
      const item = dialog.locator('li[data-pointer="/Medicaments/1/Pos/0/D/2"]');
      assert.match(await item.innerText(), /^Medicament 2, Evening: 50 /);
      assert.equal(await desk.locator('section.created').count(), 0, 'nothing issued yet');
      await dialog.getByRole('button', { name: 'No, correct the dose' }).click();
      await settlesTo(() => dialog.count(), 0);
      const evening = desk
        .getByRole('group', { name: 'Medicament 2', exact: true })
        .getByLabel('Evening', { exact: true });
      await settlesTo(() => evening.evaluate((el) => el.matches(':focus')), true);
      await evening.fill('1,5');

      await desk.getByRole('button', { name: 'Create prescription' }).click();
      const doc = await createdDocument(desk);
      assert.deepEqual(doc.Medicaments[0].Pos[0].D, [0.5, 0, 1, 0]);
      assert.deepEqual(doc.Medicaments[1].Pos[0].D, [0, 0, 1.5, 0]);
      await closeClean(watched);
    },
  );

  test('a confirmed high dose is issued as typed', { timeout: 60_000 }, async () => {
    const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
    await fillPatient(desk);
    await fillPrescriber(desk);
    await fillMedicament(desk, 0, {
      ...SAMPLE_MEDICAMENTS[0]!,
      unit: 'ml',
      doses: ['20', '', '', ''],
    });
    await desk.getByRole('button', { name: 'Create prescription' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Confirm unusual doses' });
    await dialog.getByRole('button', { name: 'Yes, create as entered' }).click();
    const doc = await createdDocument(desk);
    assert.deepEqual(doc.Medicaments[0].Pos[0].D, [20, 0, 0, 0]);
    await closeClean(watched);
  });

  test(
    'a wrong GLN check digit and a future birth date are warned beside the field, then confirmed',
    { timeout: 60_000 },
    async () => {
      const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
      await fillPatient(desk);
      await fillPrescriber(desk);
      await fillMedicament(desk, 0, SAMPLE_MEDICAMENTS[0]!);
      const patient = desk.getByRole('group', { name: 'Patient' });
      const person = desk.getByRole('group', { name: 'Prescribing person' });
      const birth = patient.getByLabel('Date of birth');
      const gln = person.getByRole('textbox', { name: 'GLN (13 digits)', exact: true });
      const nextYear = new Date().getFullYear() + 1;
      await birth.fill(`${nextYear}-01-15`);
      await gln.fill('7601001234568');
      // Leaving the field shows its warning (not while typing it).
      await person.getByLabel('ZSR number').focus();

      for (const [field, text] of [
        [gln, /check digit does not match: please check the GLN/],
        [birth, /date of birth is in the future/],
      ] as const) {
        const describedBy = await field.getAttribute('aria-describedby');
        assert.ok(describedBy?.includes('-warning'), `warned: ${describedBy}`);
        const warning = desk.locator(
          `#${describedBy!.split(' ').find((id) => id.endsWith('-warning'))}`,
        );
        assert.match(await warning.innerText(), text);
        // A warning sits next to its field and is no violation.
        assert.equal(await field.getAttribute('aria-invalid'), null);
        const box = await field.boundingBox();
        const below = await warning.boundingBox();
        assert.ok(box && below && below.y >= box.y && below.y - (box.y + box.height) < 40);
      }
      // A correct GLN has no warning.
      await gln.fill('7601001234567');
      await person.getByLabel('ZSR number').focus();
      await settlesTo(() => desk.locator('#f-HcPerson-Gln-warning').count(), 0);
      await gln.fill('7601001234568');

      await desk.getByRole('button', { name: 'Create prescription' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Check before issuing' });
      await dialog.getByRole('button', { name: 'Yes, create as entered' }).click();
      const doc = await createdDocument(desk);
      assert.equal(doc.HcPerson.Gln, '7601001234568');
      assert.equal(doc.Patient.BDt, `${nextYear}-01-15`);
      await closeClean(watched);
    },
  );
});
