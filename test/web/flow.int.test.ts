/**
 * The whole life of a prescription through the web page, in Chromium: the prescriber creates it
 * and downloads the QR code; the PNG is uploaded at the counter and decoded in the browser; the
 * pharmacist locks, dispenses one medicament partially with a substitute, unlocks, dispenses
 * fully, is refused, forces after confirming, cancels; the timeline shows each event; the patient
 * view of the same link shows the medicaments and "dispensed".
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { SUBSTITUTE } from '../support/fixtures.js';
import { browserSkipReason, screenshot, useChromium, watchedContext } from '../support/browser.js';
import { useTestServer } from '../support/server.js';
import { SAMPLE_MEDICAMENTS, closeClean, fillSample, screens, settlesTo, signIn } from './steps.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe(
  'web page: create, dispense at the counter, patient view',
  { skip: browserSkipReason() },
  () => {
    const server = useTestServer({ ownPrescriptionUrl: true });
    const browser = useChromium();
    let downloads: string;

    before(async () => {
      downloads = mkdtempSync(join(tmpdir(), 'erx-web-'));
    });

    after(async () => {
      if (downloads) rmSync(downloads, { recursive: true, force: true });
    });

    test(
      'created with its QR code, locked, dispensed, forced and cancelled at the counter, seen by the patient',
      { timeout: 120_000 },
      async () => {
        const watched = await watchedContext(browser(), server.url);
        const { page } = watched;
        const { counter, desk } = screens(page);

        // Prescriber desk: a wrong postcode comes back as a violation next to its field.
        await page.goto(`${server.url}/app/#desk`);
        await signIn(desk, server.doctor);
        await fillSample(desk, '80');
        watched.expectRefusal(400);
        await desk.getByRole('button', { name: 'Create prescription' }).click();
        const zipError = desk.locator('#f-Patient-Zip-error');
        await zipError.waitFor();
        assert.match(await zipError.innerText(), /4 or 5 digits/);
        assert.equal(await desk.locator('#f-Patient-Zip').getAttribute('aria-invalid'), 'true');
        assert.match(await desk.getByRole('alert').innerText(), /Patient, Postcode/);
        await screenshot(page, 'desk-form', false);

        await desk.getByRole('group', { name: 'Patient' }).getByLabel('Postcode').fill('8001');
        await desk.getByRole('button', { name: 'Create prescription' }).click();
        const created = desk.locator('section.created');
        await created.waitFor();
        const id = await created.getAttribute('data-prescription-id');
        assert.ok(id);
        const link = await desk.getByLabel('Link', { exact: true }).inputValue();
        assert.ok(link.startsWith(`${server.url}/rx/#CHMED16A1`), link);
        const qr = created.getByRole('img', { name: `QR code of prescription ${id}` });
        await qr.waitFor();
        assert.ok(
          (await qr.boundingBox())!.width >= 300,
          'the QR code is shown large enough to scan',
        );
        await screenshot(page, 'desk');

        const [download] = await Promise.all([
          page.waitForEvent('download'),
          desk.getByRole('link', { name: 'Download PNG' }).click(),
        ]);
        const pngPath = join(downloads, download.suggestedFilename());
        await download.saveAs(pngPath);
        assert.ok(readFileSync(pngPath).subarray(0, 8).equals(PNG_SIGNATURE), 'a PNG file');

        // Pharmacy counter: the PNG is decoded in the browser and the link verified.
        await page.getByRole('link', { name: 'Pharmacy counter' }).click();
        await signIn(counter, server.pharmacist);
        await counter.getByLabel('Upload a photo or PNG of the QR code').setInputFiles(pngPath);
        await counter.getByText('Prescription verified.').waitFor();
        assert.equal(await counter.getByLabel('Or paste the link').inputValue(), link);
        assert.match(await counter.locator('[data-flag="valid"]').innerText(), /yes/);
        const checks = await counter.locator('[data-check] strong').allInnerTexts();
        assert.deepEqual(checks, ['passed', 'passed', 'passed']);

        const timeline = counter.locator('ol.timeline > li');
        const eventTypes = () =>
          timeline.evaluateAll((items) => items.map((li) => li.dataset.eventType));
        const waitForEvents = (count: number) =>
          counter.locator(`ol.timeline > li:nth-child(${count})`).waitFor();

        // Lock with a reason.
        await counter.getByLabel('Reason (optional)').fill('Patientin an der Theke');
        await counter.getByRole('button', { name: 'Lock', exact: true }).click();
        await waitForEvents(2);
        assert.match(await counter.locator('[data-flag="locked"]').innerText(), /yes/);
        assert.match(await timeline.nth(1).innerText(), /Reason: Patientin an der Theke/);

        // Partial dispensation of the first medicament, as a substitute.
        const first = counter.locator(
          `li.dispense-line[data-medicament-id="${SAMPLE_MEDICAMENTS[0]!.id}"]`,
        );
        await first.getByLabel('Packs to dispense now').fill('1');
        await first.getByLabel('Dispense a substitute').check();
        await first.getByLabel('Substitute ID', { exact: true }).fill(SUBSTITUTE);
        await first.getByLabel('Substitute ID type').selectOption({ label: 'GTIN' });
        await counter.getByRole('button', { name: 'Dispense the packs entered (partial)' }).click();
        await waitForEvents(3);
        assert.match(await first.locator('.progress').innerText(), /0 of 1 pack remaining/);
        const second = counter.locator(
          `li.dispense-line[data-medicament-id="${SAMPLE_MEDICAMENTS[1]!.id}"]`,
        );
        assert.match(await second.locator('.progress').innerText(), /8 of 8 packs remaining/);
        assert.match(await timeline.nth(2).innerText(), /substitute 7680999999999 \(GTIN\)/);

        // Unlock, then a full dispensation.
        await counter.getByLabel('Reason (optional)').fill('bedient');
        await counter.getByRole('button', { name: 'Unlock', exact: true }).click();
        await waitForEvents(4);
        await counter.getByRole('button', { name: 'Dispense the rest' }).click();
        await waitForEvents(5);
        assert.match(await counter.locator('[data-flag="dispensed"]').innerText(), /yes/);
        // The full dispensation took the second medicament to its 8 packs (the first was done).
        const handedOut = (n: number) =>
          timeline
            .nth(n)
            .locator('[data-item]')
            .evaluateAll((lis) =>
              lis.map((li) => [li.getAttribute('data-item'), li.getAttribute('data-amount')]),
            );
        assert.deepEqual(await handedOut(4), [[SAMPLE_MEDICAMENTS[1]!.id, '8']]);

        // A second dispensation overrides "already dispensed": recorded only after confirmation.
        await counter.getByRole('button', { name: 'Dispense anyway…' }).click();
        const confirm = page.getByRole('alertdialog', {
          name: 'Dispense against the prescription?',
        });
        await confirm.waitFor();
        assert.equal(await timeline.count(), 5, 'nothing recorded before the confirmation');
        await confirm.getByLabel('Reason (recorded with the dispensation)').fill('Ersatzpackung');
        await confirm.getByRole('button', { name: 'Yes, dispense anyway' }).click();
        await waitForEvents(6);
        await counter.getByText('Forced dispensation recorded.').waitFor();
        // Forced after everything was dispensed: it handed out nothing more.
        assert.deepEqual(await handedOut(5), []);
        assert.equal(await timeline.nth(5).locator('.items-none').count(), 1);

        // Cancel the forced dispensation (one's own event).
        const forced = timeline.nth(5);
        await forced.getByRole('button', { name: /Cancel this event/ }).click();
        await page.getByRole('button', { name: 'Yes, cancel it' }).click();
        await waitForEvents(7);
        await counter.getByText('Event cancelled.').waitFor();
        await settlesTo(() => forced.getAttribute('data-cancelled'), 'true');
        assert.deepEqual(await eventTypes(), [
          'create',
          'lock',
          'partial_dispense',
          'unlock',
          'full_dispense',
          'full_dispense',
          'cancel',
        ]);
        assert.match(await timeline.nth(6).innerText(), /Cancels: Full dispensation/);
        await screenshot(page, 'counter');

        // The service agrees with what the screen shows.
        const verified = await server.request('POST', '/ePrescription/verify', {
          token: server.pharmacist.token,
          body: link,
          contentType: 'text/plain',
        });
        assert.equal(verified.status, 200);
        assert.equal(verified.json.dispensed, true);
        assert.equal(verified.json.locked, false);
        assert.equal(verified.json.events.length, 7);
        assert.deepEqual(verified.json.partial_dispensations[0].substitute, SUBSTITUTE);

        // Patient view of the same link.
        const patient = await watched.context.newPage();
        // The patient opens the link on a phone.
        await patient.setViewportSize({ width: 430, height: 932 });
        await patient.goto(link);
        const status = patient.locator('[data-state="dispensed"]');
        await status.waitFor();
        assert.match(await status.innerText(), /Dispensed/);
        const meds = patient.locator('li.medicament');
        assert.equal(await meds.count(), 2);
        assert.match(await meds.nth(0).innerText(), /GTIN 7680543201015/);
        assert.match(await meds.nth(0).innerText(), /Nach dem Essen einnehmen/);
        assert.match(await meds.nth(1).innerText(), /not allowed/);
        const firstDoses = await meds.nth(0).locator('table.dosage td').allInnerTexts();
        assert.deepEqual(firstDoses.slice(0, 4), ['1', '0', '1', '0']);
        const until = SAMPLE_MEDICAMENTS[0]!.until!.split('-').reverse().join('.');
        assert.ok(firstDoses[4]?.includes(`until ${until}`), firstDoses[4]);
        assert.match(await patient.locator('main').innerText(), /Anna Muster/);
        await screenshot(patient, 'patient');

        await closeClean(watched);
      },
    );
  },
);
