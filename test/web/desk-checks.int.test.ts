/**
 * The desk issues only what a prescription can be: impossible values (0 or −1 packages, 25
 * repeats, a negative dose) are refused at their field and nothing is sent; unusual ones (a birth
 * date in the future, a GTIN with a wrong check digit or of the wrong length, "take until" in the
 * past) are listed in one dialog, nothing is issued before it is confirmed, and "no" goes back to
 * the first of them.
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
  focusedId,
  openSignedIn,
  settlesTo,
} from './steps.js';

/** How many create calls the page has sent so far. */
function creates(requests: readonly string[]): number {
  return requests.filter((url) => url.includes('/ePrescription/create')).length;
}

describe(
  'web page: the desk refuses impossible values and confirms unusual ones',
  {
    skip: browserSkipReason(),
  },
  () => {
    const server = useTestServer({ ownPrescriptionUrl: true });
    const browser = useChromium();

    test(
      '0 and −1 packages, 25 repeats and a negative dose are refused at the field, unsent',
      { timeout: 60_000 },
      async () => {
        const { watched, desk } = await openSignedIn(browser(), server.url, server.doctor);
        await fillPatient(desk);
        await fillPrescriber(desk);
        await fillMedicament(desk, 0, { ...SAMPLE_MEDICAMENTS[0]!, packs: '0', repeats: '25' });
        await fillMedicament(desk, 1, {
          ...SAMPLE_MEDICAMENTS[1]!,
          packs: '-1',
          doses: ['-1', '0', '1', '0'],
        });
        const med = (n: number) =>
          desk.getByRole('group', { name: `Medicament ${n}`, exact: true });
        await desk.getByRole('button', { name: 'Create prescription' }).click();
        const summary = desk.locator('.violations');
        await summary.waitFor();
        const invalid = [
          med(1).getByLabel('Packs'),
          med(1).getByLabel('Repeats (0 to 24)'),
          med(2).getByLabel('Packs'),
          med(2).getByLabel('Morning', { exact: true }),
        ];
        for (const field of invalid) {
          assert.equal(await field.getAttribute('aria-invalid'), 'true', await field.inputValue());
        }
        // Each is named in the summary, which takes focus; the packs' bounds are said.
        assert.equal(await summary.getByRole('link').count(), 4);
        await summary.getByRole('link', { name: 'Medicament 2, Packs' }).waitFor();
        assert.match(
          await desk.locator('#f-Medicaments-1-NbPack-error').innerText(),
          /1 to 10,000/,
        );
        await settlesTo(() => summary.evaluate((el) => el.matches(':focus')), true);
        assert.equal(creates(watched.requests), 0, 'nothing sent');
        assert.equal(await desk.locator('section.created').count(), 0);

        // Corrected, it is issued with the numbers typed.
        await med(1).getByLabel('Packs').fill('2');
        await med(1).getByLabel('Repeats (0 to 24)').fill('1');
        await med(2).getByLabel('Packs').fill('10000');
        await med(2).getByLabel('Morning', { exact: true }).fill('0,5');
        await desk.getByRole('button', { name: 'Create prescription' }).click();
        const doc = await createdDocument(desk);
        assert.deepEqual(
          doc.Medicaments.map((m: { NbPack: number; Rep: number }) => [m.NbPack, m.Rep]),
          [
            [2, 1],
            [10000, 3],
          ],
        );
        await closeClean(watched);
      },
    );

    test(
      'a future birth date, wrong GTINs and a past "take until" are confirmed once, all together',
      { timeout: 60_000 },
      async () => {
        const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
        await fillPatient(desk);
        await fillPrescriber(desk);
        const year = new Date().getFullYear();
        await fillMedicament(desk, 0, {
          ...SAMPLE_MEDICAMENTS[0]!,
          id: '7680543201016',
          until: `${year - 1}-01-31`,
        });
        await fillMedicament(desk, 1, { ...SAMPLE_MEDICAMENTS[1]!, id: '76805' });
        await desk
          .getByRole('group', { name: 'Patient' })
          .getByLabel('Date of birth')
          .fill(`${year + 5}-01-15`);
        await desk.getByRole('button', { name: 'Create prescription' }).click();
        const dialog = page.getByRole('alertdialog', { name: 'Check before issuing' });
        await dialog.waitFor();
        const listed = () =>
          dialog
            .locator('li[data-pointer]')
            .evaluateAll((items) => items.map((li) => li.getAttribute('data-pointer')));
        assert.deepEqual(await listed(), [
          '/Patient/BDt',
          '/Medicaments/0/Id',
          '/Medicaments/0/Pos/0/DtTo',
          '/Medicaments/1/Id',
        ]);
        assert.equal(creates(watched.requests), 0, 'nothing issued before the confirmation');

        // "No" goes back to the first field named.
        await dialog.getByRole('button', { name: 'No, go back to the field' }).click();
        await settlesTo(() => dialog.count(), 0);
        await settlesTo(() => focusedId(page), 'f-Patient-BDt');
        assert.equal(creates(watched.requests), 0);

        // One confirmation issues it as entered.
        await desk.getByRole('button', { name: 'Create prescription' }).click();
        await dialog.getByRole('button', { name: 'Yes, create as entered' }).click();
        const doc = await createdDocument(desk);
        assert.equal(doc.Patient.BDt, `${year + 5}-01-15`);
        assert.equal(doc.Medicaments[1].Id, '76805');
        assert.equal(creates(watched.requests), 1);
        await closeClean(watched);
      },
    );
  },
);
