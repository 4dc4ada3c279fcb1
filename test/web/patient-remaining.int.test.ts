/**
 * The patient view says what was recorded (SPEC.md §10 "Who sees what": the holder of a genuine
 * link learns the validity end and the packages left): an open prescription is valid until its
 * end with every package still to collect, a partly dispensed one says what is left of each
 * medicament by its product name, an expired one that a pharmacy will not dispense it, a revoked
 * one that it was withdrawn; a status check that failed can be made again.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { browserSkipReason, screenshot, useChromium, watchedContext } from '../support/browser.js';
import { CATALOG_SAMPLE, SAMPLE_ARTICLES, importCatalog } from '../support/catalog.js';
import { calls, createPrescription, expectationsOn } from '../support/e2e.js';
import { samplePrescription } from '../support/fixtures.js';
import { useTestServer } from '../support/server.js';
import { closeClean, settlesTo } from './steps.js';

const { febridol16, dormival } = SAMPLE_ARTICLES;
/** The default `ERX_PRESCRIPTION_VALIDITY` (SPEC.md §10). */
const VALIDITY_MS = 365 * 86_400_000;

/** A date as every page shows it (31.12.2025), in the browser's zone (Zurich). */
function shownDate(ms: number): string {
  return new Intl.DateTimeFormat('de-CH', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'Europe/Zurich',
  }).format(new Date(ms));
}

/** The sample prescription with the catalogue's two sample products (1 and 2 × 4 packages). */
function withSampleProducts(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const doc = samplePrescription(overrides);
  const [first, second] = doc.Medicaments as Record<string, unknown>[];
  return {
    ...doc,
    Medicaments: [
      { ...first, Id: febridol16.gtin, IdType: 2 },
      { ...second, Id: dormival.gtin, IdType: 2 },
    ],
  };
}

describe('web page: patient view, what was recorded', { skip: browserSkipReason() }, () => {
  let clockMovedMs = 0;
  const server = useTestServer({
    ownPrescriptionUrl: true,
    runtime: { now: () => Date.now() + clockMovedMs },
  });
  const browser = useChromium();
  const call = calls(server);
  const { appends } = expectationsOn(server);

  before(async () => {
    const run = await importCatalog(server, CATALOG_SAMPLE);
    assert.equal(run.status, 0, run.stderr);
  });

  test('open: valid until its end, every package still to collect', async () => {
    const doc = withSampleProducts();
    const { link } = await createPrescription(server, doc);
    const end = shownDate(Date.parse(doc.Dt as string) + VALIDITY_MS);
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    await page.goto(link);
    const status = page.locator('[data-state="valid"]');
    await status.waitFor();
    assert.equal(
      await status.locator('.status-main').innerText(),
      `Valid until ${end}: this prescription can be dispensed at a pharmacy.`,
    );
    assert.equal(await status.locator('[data-fact="valid-until"] dd').innerText(), end);
    assert.equal(await status.locator('[data-fact="expired"] dd').innerText(), 'no');
    await settlesTo(
      () => status.locator('.status-remaining li').allInnerTexts(),
      [
        `1 of 1 package of ${febridol16.de} still to collect`,
        `8 of 8 packages of ${dormival.de} still to collect`,
      ],
    );
    await closeClean(watched);
  });

  test('partly dispensed: what is left of each medicament, by product name, in German', async () => {
    const { id, link } = await createPrescription(server, withSampleProducts());
    await appends(
      id,
      call.dispenseItems(id, server.pharmacist, [{ id: dormival.gtin, amount: 3 }]),
      'partial_dispense',
    );
    const watched = await watchedContext(browser(), server.url, 'de-CH');
    const { page } = watched;
    await page.goto(link);
    const status = page.locator('[data-state="partial"]');
    await status.waitFor();
    assert.match(await status.locator('.status-main').innerText(), /^Teilweise abgegeben: /);
    assert.equal(await status.locator('[data-fact="dispensed"] dd').innerText(), 'nein');
    await settlesTo(
      () => status.locator('.status-remaining li').allInnerTexts(),
      [
        `1 von 1 Packung ${febridol16.de} noch zu beziehen`,
        `5 von 8 Packungen ${dormival.de} noch zu beziehen`,
      ],
    );
    assert.deepEqual(
      await status
        .locator('.status-remaining li')
        .evaluateAll((items) => items.map((li) => li.getAttribute('data-remaining'))),
      ['1', '5'],
    );
    await screenshot(page, 'patient-partial', false);

    // Once the rest is collected: dispensed, nothing left, no list of what is left.
    await appends(id, call.full(id), 'full_dispense');
    await page.reload();
    const dispensed = page.locator('[data-state="dispensed"]');
    await dispensed.waitFor();
    assert.equal(await dispensed.locator('[data-fact="remaining"] dd').innerText(), 'keine');
    assert.equal(await dispensed.locator('.status-remaining').count(), 0);
    await closeClean(watched);
  });

  test('expired: no longer valid since its end, not dispensed, in German and French', async () => {
    // Dated so that it expires a minute after it is created; then the clock moves on two.
    const dt = Date.now() - VALIDITY_MS + 60_000;
    const { link } = await createPrescription(
      server,
      samplePrescription({ Dt: new Date(dt).toISOString() }),
    );
    const end = shownDate(dt + VALIDITY_MS);
    clockMovedMs = 120_000;
    try {
      for (const [locale, words, yes] of [
        [
          'de-CH',
          `Abgelaufen: Dieses Rezept ist seit dem ${end} nicht mehr gültig. Eine Apotheke gibt es nicht mehr ab.`,
          'ja',
        ],
        [
          'fr-CH',
          `Échue\u202f: cette ordonnance n’est plus valable depuis le ${end}. Une pharmacie ne la délivrera plus.`,
          'oui',
        ],
      ] as const) {
        const watched = await watchedContext(browser(), server.url, locale);
        const { page } = watched;
        await page.goto(link);
        const status = page.locator('[data-state="expired"]');
        await status.waitFor();
        assert.equal(await status.locator('.status-main').innerText(), words);
        assert.equal(await status.locator('[data-fact="expired"] dd').innerText(), yes);
        assert.equal(await status.locator('[data-fact="valid-until"] dd').innerText(), end);
        assert.equal(await status.locator('.status-remaining').count(), 0);
        await closeClean(watched);
      }
    } finally {
      clockMovedMs = 0;
    }
  });

  test('revoked: withdrawn by the prescriber, nothing to collect', async () => {
    const { link } = await expectationsOn(server).revoked();
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    await page.goto(link);
    const status = page.locator('[data-state="revoked"]');
    await status.waitFor();
    assert.match(await status.locator('.status-main').innerText(), /^Revoked: /);
    assert.equal(await status.locator('[data-fact="revoked"] dd').innerText(), 'yes');
    assert.equal(await status.locator('.status-remaining').count(), 0);
    await closeClean(watched);
  });

  test('a status check that failed is made again on request', async () => {
    const { link } = await createPrescription(server);
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    // The first status call fails as an overloaded service answers; the next one goes through.
    let failed = 0;
    await page.route('**/ePrescription/status', async (route) => {
      if (failed++ > 0) return route.continue();
      return route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ error_code: 'service_unavailable', message: 'busy' }),
      });
    });
    watched.expectRefusal(503);
    await page.goto(link);
    const unreachable = page.locator('[data-state="unreachable"]');
    await unreachable.waitFor();
    await unreachable.getByRole('button', { name: 'Check again' }).click();
    const valid = page.locator('[data-state="valid"]');
    await valid.waitFor();
    assert.equal(failed, 2);
    // The answer takes the focus the vanished button had.
    await settlesTo(() => valid.evaluate((el) => el === el.ownerDocument.activeElement), true);
    await closeClean(watched);
  });
});
