/**
 * A CHMED23A prescription on three QR codes in Chromium (docs/decisions.md "One signed link over
 * several QR codes"): the counter reads the codes from three images uploaded in reverse order,
 * saying how many are read and which are still to read, then verifies the link they make; the
 * patient view does the same from its own upload and shows the structured posology in German,
 * French and English. A code of another prescription is refused and named. axe reports nothing
 * on the states between the codes.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, test } from 'node:test';
import QRCode from 'qrcode';
import type { Locator, Page } from 'playwright-core';
import { splitIntoPartLinks } from '../../src/link/parts.js';
import { assertAccessible } from '../support/axe.js';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import { sampleChmed23Prescription } from '../support/chmed23a-fixtures.js';
import { useTestServer } from '../support/server.js';
import { closeClean, openSignedIn } from './steps.js';

/** A medicament taken twice a day for five days, then paused for two (a sequence). */
const SEQUENCE_MED = {
  id: '7680555580018',
  idType: 2,
  pos: [
    {
      po: {
        t: 5,
        sos: [
          { t: 1, po: { t: 1, ds: [1, 0, 1, 0] }, du: 5, duU: 4 },
          { t: 2, du: 2, duU: 4 },
        ],
      },
      unit: 'Stk',
    },
  ],
  reps: { t: 1, v: 0 },
};

describe(
  'web page: a CHMED23A prescription on three QR codes',
  { skip: browserSkipReason() },
  () => {
    const server = useTestServer({ ownPrescriptionUrl: true });
    const browser = useChromium();
    const dir = mkdtempSync(join(tmpdir(), 'erx-parts-'));
    /** The three images, part 1 first. */
    let images: string[] = [];
    let otherImage = '';
    let id = '';

    async function created(): Promise<{ link: string; id: string }> {
      const doc = sampleChmed23Prescription();
      (doc.meds as unknown[]).push(SEQUENCE_MED);
      const answer = await server.request('POST', '/ePrescription/create?output-format=data', {
        token: server.doctor.token,
        body: JSON.stringify(doc),
        contentType: 'application/json',
      });
      assert.equal(answer.status, 200, answer.text);
      const body = answer.json as { SignedPrescriptionData: string; prescription_id: string };
      return { link: body.SignedPrescriptionData, id: body.prescription_id };
    }

    async function pngsOf(link: string, name: string): Promise<string[]> {
      const parts = splitIntoPartLinks(link, 3);
      return Promise.all(
        parts.map(async (part, i) => {
          const file = join(dir, `${name}-${i + 1}.png`);
          await QRCode.toFile(file, part, { errorCorrectionLevel: 'M', margin: 4, scale: 4 });
          return file;
        }),
      );
    }

    before(async () => {
      const first = await created();
      id = first.id;
      images = await pngsOf(first.link, 'one');
      otherImage = (await pngsOf((await created()).link, 'other'))[1]!;
    });

    /** Uploads `file` to the input labelled `label` and waits for `read` parts to show. */
    async function upload(screen: Locator, label: string, file: string, read: number) {
      await screen.getByLabel(label).setInputFiles(file);
      await screen.locator(`[data-parts-read="${read}"]`).waitFor();
    }

    test('the counter reads the codes in reverse order, then verifies the prescription', async () => {
      const { watched, page, counter } = await openSignedIn(
        browser(),
        server.url,
        server.pharmacist,
        'counter',
      );
      const label = 'Upload a photo or PNG of the QR code';
      await upload(counter, label, images[2]!, 1);
      assert.match(
        await counter.locator('.parts').innerText(),
        /1 of 3 read\s+Still to read: 1 and 2\./,
      );
      await assertAccessible(page, 'counter: one code of three read');
      // A code of another prescription is named and changes nothing.
      await counter.getByLabel(label).setInputFiles(otherImage);
      await counter
        .getByRole('alert')
        .filter({
          hasText: 'This code belongs to another prescription than the codes read so far.',
        })
        .waitFor();
      await assertAccessible(page, 'counter: a code of another prescription');
      await upload(counter, label, images[1]!, 2);
      assert.match(await counter.locator('.parts').innerText(), /2 of 3 read\s+Still to read: 1\./);
      await counter.getByLabel(label).setInputFiles(images[0]!);
      await counter.locator('#verify-title').waitFor();
      assert.equal(await counter.locator('.parts').count(), 0);
      assert.match(await counter.locator('.counter-main').innerText(), new RegExp(id));
      await assertAccessible(page, 'counter: a prescription read from three codes');
      await closeClean(watched);
    });

    test('the patient view reads the codes in reverse order and words the posology', async () => {
      const watched = await watchedContext(browser(), server.url);
      const page: Page = watched.page;
      await page.goto(`${server.url}/rx/`);
      const main = page.locator('main');
      await page.getByRole('button', { name: 'English' }).click();
      const label = 'Upload a photo or PNG of the QR code';
      await upload(main, label, images[2]!, 1);
      await assertAccessible(page, 'patient view: one code of three read');
      await upload(main, label, images[1]!, 2);
      assert.match(await main.locator('.parts').innerText(), /2 of 3 read/);
      await main.getByLabel(label).setInputFiles(images[0]!);
      await main.locator('li.medicament').first().waitFor();
      await main.locator('[data-state="valid"]').waitFor();
      const words = {
        English: [
          /Every 1 day: Morning: 1 to 2, Evening: 1 to 2 \(as needed\)/,
          /Morning: 1, Evening: 1 for 5 days; then pause for 2 days/,
        ],
        Deutsch: [
          /Zyklus von 1 Tag: .*1 bis 2 \(bei Bedarf\)/,
          /Morgen: 1, Abend: 1 für 5 Tage; danach Pause für 2 Tage/,
        ],
        Français: [
          /Cycle de 1 jour : .*de 1 à 2 \(en réserve\)/,
          /pendant 5 jours ; puis pause de 2 jours/,
        ],
      };
      for (const [language, expected] of Object.entries(words)) {
        await page.getByRole('button', { name: language }).click();
        const text = (await main.locator('.posology').allInnerTexts()).join('\n');
        for (const pattern of expected) assert.match(text, pattern);
      }
      await assertAccessible(page, 'patient view: a prescription read from three codes');
      await closeClean(watched);
    });
  },
);
