/**
 * Product names in Chromium: without a catalogue the counter and the patient view show a
 * medicament as its GTIN only, as they always did; once `erx catalog import` has loaded the sample
 * list, both show the product's name beside the GTIN (in French in French), and the desk's product
 * search fills a medicament's GTIN from a name. Each of these screens passes axe.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { axeViolations, formatViolations } from '../support/axe.js';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import { CATALOG_SAMPLE, SAMPLE_ARTICLES, importCatalog } from '../support/catalog.js';
import { createPrescription } from '../support/e2e.js';
import type { Created } from '../support/e2e.js';
import { samplePrescription } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';
import { openAtCounter } from './counter-steps.js';
import { screens, settlesTo, signIn } from './steps.js';

const { febridol16, dormival } = SAMPLE_ARTICLES;

/** The sample prescription with the sample list's two products as its medicaments. */
function withSampleProducts(): Record<string, unknown> {
  const doc = samplePrescription();
  const [first, second] = doc.Medicaments as Record<string, unknown>[];
  return {
    ...doc,
    Medicaments: [
      { ...first, Id: febridol16.gtin, IdType: 2 },
      { ...second, Id: dormival.gtin, IdType: 2 },
    ],
  };
}

/** The text of each medicament heading in `scope`. */
function headings(scope: Locator | Page, selector: string): Promise<string[]> {
  return scope.locator(selector).allInnerTexts();
}

async function assertAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  assert.equal(violations.length, 0, `${what}:\n${formatViolations(violations)}`);
}

const counterHeadings = (counter: Locator) => headings(counter, '.dispense-line h3');
const patientHeadings = (page: Page) => headings(page, 'li.medicament h3');

describe('web page: product names from the catalogue', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();
  let rx: Created;

  before(async () => {
    rx = await createPrescription(server, withSampleProducts());
  });

  test('without a catalogue, then after erx catalog import', { timeout: 120_000 }, async () => {
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    // No catalogue: the GTIN alone, at the counter and in the patient view.
    const counter = await openAtCounter(page, server, server.pharmacist, rx.link);
    await counter.locator('.dispense-line').first().waitFor();
    assert.deepEqual(await counterHeadings(counter), [
      `GTIN ${febridol16.gtin}`,
      `GTIN ${dormival.gtin}`,
    ]);
    assert.equal(await counter.locator('.product-name').count(), 0);
    await page.goto(rx.link);
    await page.locator('[data-state="valid"]').waitFor();
    assert.deepEqual(await patientHeadings(page), [
      `GTIN ${febridol16.gtin}`,
      `GTIN ${dormival.gtin}`,
    ]);

    const run = await importCatalog(server, CATALOG_SAMPLE);
    assert.equal(run.status, 0, run.stderr);

    // The names beside the GTINs, at the counter (table and lines) and in the patient view.
    const named = [
      `${febridol16.de} (GTIN ${febridol16.gtin})`,
      `${dormival.de} (GTIN ${dormival.gtin})`,
    ];
    const again = await openAtCounter(page, server, server.pharmacist, rx.link);
    await settlesTo(() => counterHeadings(again), named);
    await settlesTo(() => headings(again, 'table.medicament-status tbody th'), named);
    await assertAccessible(page, 'the counter with product names');
    await page.goto(rx.link);
    await page.locator('[data-state="valid"]').waitFor();
    await settlesTo(() => patientHeadings(page), named);
    await assertAccessible(page, 'the patient view with product names');
    watched.assertClean();
    await watched.context.close();

    // The patient view in French shows the French names; it has no token and needs none.
    const french = await watchedContext(browser(), server.url, 'fr-CH');
    const names: string[] = [];
    french.page.on('request', (r) => {
      if (r.url().includes('/catalog')) names.push(r.headers().authorization ?? 'none');
    });
    await french.page.goto(rx.link);
    await settlesTo(
      () => patientHeadings(french.page),
      [`${febridol16.fr} (GTIN ${febridol16.gtin})`, `${dormival.fr} (GTIN ${dormival.gtin})`],
    );
    assert.deepEqual(names, ['none']);
    french.assertClean();
    await french.context.close();
  });

  test('the desk’s product search fills the GTIN', { timeout: 60_000 }, async () => {
    const run = await importCatalog(server, CATALOG_SAMPLE);
    assert.equal(run.status, 0, run.stderr);
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    const { desk } = screens(page);
    await page.goto(`${server.url}/app/#desk`);
    await signIn(desk, server.doctor);
    const med = desk.getByRole('group', { name: 'Medicament 1' });
    await med.getByLabel('Find a product (name)').fill('dormi');
    const results = med.getByRole('list', { name: 'Products found' });
    const choice = results.getByRole('button', { name: `${dormival.de} (GTIN ${dormival.gtin})` });
    await choice.waitFor();
    assert.equal(await med.getByRole('status').innerText(), 'Products found: 1');
    await assertAccessible(page, 'the desk with products found');
    await choice.click();
    await settlesTo(() => med.getByLabel('Product ID').inputValue(), dormival.gtin);
    assert.equal(await med.getByLabel('ID type').inputValue(), '2');
    assert.equal(await med.getByRole('status').innerText(), `Chosen: ${dormival.de}`);
    assert.equal(await results.count(), 0);
    // Nothing found is said so; the GTIN is typed as before.
    await med.getByLabel('Find a product (name)').fill('zz-none');
    await settlesTo(
      () => med.getByRole('status').innerText(),
      'No product found in the catalogue.',
    );
    await assertAccessible(page, 'the desk with nothing found');
    watched.assertClean();
    await watched.context.close();
  });

  test(
    'every word of the search must match, in any order; the choice keeps focus and lasts while its GTIN does',
    { timeout: 60_000 },
    async () => {
      const run = await importCatalog(server, CATALOG_SAMPLE);
      assert.equal(run.status, 0, run.stderr);
      const watched = await watchedContext(browser(), server.url);
      const { page } = watched;
      const { desk } = screens(page);
      await page.goto(`${server.url}/app/#desk`);
      await signIn(desk, server.doctor);
      const med = desk.getByRole('group', { name: 'Medicament 1' });
      const search = med.getByLabel('Find a product (name)');
      const results = med.getByRole('list', { name: 'Products found' });
      const gtins = () =>
        results
          .getByRole('button')
          .evaluateAll((buttons) => buttons.map((b) => b.getAttribute('data-gtin')));
      await search.fill('16 Febridol');
      await settlesTo(gtins, [febridol16.gtin]);
      await search.fill('febridol 16');
      await settlesTo(gtins, [febridol16.gtin]);
      await results.getByRole('button').click();
      await settlesTo(() => med.getByLabel('Product ID').inputValue(), febridol16.gtin);
      await settlesTo(() => search.evaluate((el) => el.matches(':focus')), true);
      const status = med.getByRole('status');
      assert.equal(await status.innerText(), `Chosen: ${febridol16.de}`);
      // Another GTIN typed: the product chosen is no longer said to be chosen.
      await med.getByLabel('Product ID').fill(dormival.gtin);
      await settlesTo(() => status.innerText(), '');
      watched.assertClean();
      await watched.context.close();
    },
  );
});
