/**
 * Links erx did not issue in Chromium (SPEC.md §3 "Links erx did not issue"): HIN's published QR
 * code uploaded at the counter, a QR code of HIN's link form (a field of its own, a 130-hex `s`,
 * unpadded base64), a bare document wrapped over lines, and the patient view given such a
 * fragment. Each is shown from the link alone with who issued it and that it cannot be verified
 * here; the counter offers no control that would act on it, and nothing is sent to the service.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, test } from 'node:test';
import QRCode from 'qrcode';
import type { Locator, Page } from 'playwright-core';
import { assertAccessible } from '../support/axe.js';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import type { WatchedContext } from '../support/browser.js';
import { FOREIGN_LINKS, FOREIGN_QR_PNG } from '../support/foreign-links.js';
import { useTestServer } from '../support/server.js';
import { screens, signIn } from './steps.js';

const PUBLISHED = FOREIGN_LINKS.find(
  (f) => f.link.startsWith('https://eRx.ch/') && f.medicaments === 6,
)!;
const HIN_FORM = FOREIGN_LINKS.find((f) => f.link.includes('eprescription.hin.ch/#CHMED16A1H4'))!;

/** Every control of the counter that would record something on a prescription. */
const ACTIONS = [
  'Dispense the rest',
  'Dispense the packs entered (partial)',
  'Dispense anyway…',
  'Lock',
  'Unlock',
  'Cancel this event',
];

/** The paths of every POST of `page` to the service's prescription routes, as they happen. */
function prescriptionCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (request.method() === 'POST' && path.startsWith('/ePrescription/')) calls.push(path);
  });
  return calls;
}

/** The action controls of `counter` that are shown and enabled: none may be. */
async function offeredActions(counter: Locator): Promise<string[]> {
  const offered: string[] = [];
  for (const name of ACTIONS) {
    for (const button of await counter.getByRole('button', { name, exact: true }).all()) {
      if ((await button.isVisible()) && (await button.isEnabled())) offered.push(name);
    }
  }
  return offered;
}

describe('web page: links erx did not issue', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  async function counterOf(): Promise<{
    watched: WatchedContext;
    counter: Locator;
    calls: string[];
  }> {
    const watched = await watchedContext(browser(), server.url);
    const calls = prescriptionCalls(watched.page);
    const { counter } = screens(watched.page);
    await watched.page.goto(`${server.url}/app/#counter`);
    await signIn(counter, server.pharmacist);
    return { watched, counter, calls };
  }

  /** Asserts what the counter shows of a foreign link: heading, warning, content, no control. */
  async function assertShownForeign(
    counter: Locator,
    heading: string,
    medicaments: number,
  ): Promise<Locator> {
    const card = counter.locator('section[data-foreign]');
    await card.getByRole('heading', { name: heading }).waitFor();
    await counter
      .getByRole('alert')
      .filter({ hasText: 'erx did not issue this prescription' })
      .waitFor();
    assert.equal(await card.locator('li.medicament').count(), medicaments);
    assert.equal(await card.getByRole('button').count(), 0);
    assert.deepEqual(await offeredActions(counter), []);
    assert.equal(await counter.locator('#verify-title').count(), 0);
    return card;
  }

  test('HIN’s published QR code, uploaded: issued by erx.ch, not verifiable here, nothing offered or sent', async () => {
    const { watched, counter, calls } = await counterOf();
    await counter.getByLabel('Upload a photo or PNG of the QR code').setInputFiles(FOREIGN_QR_PNG);
    await assertShownForeign(
      counter,
      'Issued by erx.ch, not verifiable here',
      PUBLISHED.medicaments,
    );
    assert.equal(await counter.getByLabel('Or paste the link').inputValue(), PUBLISHED.link);
    // Asking again reads it again from the link alone.
    await counter.getByRole('button', { name: 'Verify', exact: true }).click();
    await counter.locator('section[data-foreign="erx.ch"]').waitFor();
    assert.deepEqual(calls, []);
    watched.assertClean();
    await watched.context.close();
  });

  test('a QR code of HIN’s link form: its host and issuer label, no end date where it is empty', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'erx-foreign-qr-'));
    const png = join(dir, 'hin.png');
    await QRCode.toFile(png, HIN_FORM.link, { errorCorrectionLevel: 'L', margin: 4, scale: 4 });
    const { watched, counter, calls } = await counterOf();
    await counter.getByLabel('Upload a photo or PNG of the QR code').setInputFiles(png);
    const card = await assertShownForeign(
      counter,
      'Issued by eprescription.hin.ch, not verifiable here',
      HIN_FORM.medicaments,
    );
    assert.match(await card.innerText(), /Issuer named in the link\s*Dr\. Test Test 1/);
    await assertAccessible(watched.page, 'counter: a link another service issued');
    // "DtTo": "" is no end date: every medicament has a start and no end.
    const text = await card.locator('li.medicament').allInnerTexts();
    assert.ok(
      text.every((t) => /25\.09\.2020/.test(t) && !/until/i.test(t)),
      text.join('\n'),
    );
    assert.deepEqual(calls, []);
    watched.assertClean();
    await watched.context.close();
  });

  test('a bare document wrapped over lines with the prefix on every line is read, not verified', async () => {
    const chmed = HIN_FORM.link.slice(HIN_FORM.link.indexOf('#') + 1).split('&')[0]!;
    const lines = chmed.slice('CHMED16A1'.length).match(/.{1,76}/g)!;
    const wrapped = lines.map((line) => `CHMED16A1${line}`).join('\n');
    const { watched, counter, calls } = await counterOf();
    await counter.getByLabel('Or paste the link').fill(wrapped);
    await counter.getByRole('button', { name: 'Verify', exact: true }).click();
    const bare = counter.locator('[data-bare]');
    await bare.waitFor();
    assert.equal(await bare.locator('li.medicament').count(), HIN_FORM.medicaments);
    assert.deepEqual(calls, []);
    watched.assertClean();
    await watched.context.close();
  });

  test('the patient view shows another issuer’s fragment as not issued here and asks no status', async () => {
    const watched = await watchedContext(browser(), server.url);
    const calls = prescriptionCalls(watched.page);
    const fragment = PUBLISHED.link.slice(PUBLISHED.link.indexOf('#'));
    await watched.page.goto(`${server.url}/rx/${fragment}`);
    const card = watched.page.locator('section[data-foreign]');
    await card
      .getByRole('heading', { name: 'Not issued by this service, not verifiable here' })
      .waitFor();
    assert.match(
      await card.innerText(),
      /did not issue this prescription and cannot check its status/,
    );
    assert.equal(await card.locator('li.medicament').count(), PUBLISHED.medicaments);
    assert.equal(await card.getByRole('button').count(), 0);
    await assertAccessible(watched.page, 'patient view: a link another service issued');
    assert.deepEqual(calls, []);
    watched.assertClean();
    await watched.context.close();
  });
});
