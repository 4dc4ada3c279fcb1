/**
 * The page's accessibility, in Chromium: axe-core (from npm, injected into the page) finds no
 * violation on any screen state a practice assistant, a pharmacist or a patient passes through —
 * sign-in, the desk's empty form and list, products found in the catalogue, warnings, violations and the dose dialog, the created
 * prescription, the counter empty, with an open, a locked, a fully dispensed and a revoked
 * prescription, a forged link and a bare document, its force, cancel, undo-cancel, release, sign-out and
 * sign-in-again dialogs, and the patient view (valid, dispensed, revoked, no link, a bad link) — each in German, French and
 * English, on a desktop and a phone viewport; on the phone, no state scrolls sideways.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { MED_A } from '../support/fixtures.js';
import { assertAccessible } from '../support/axe.js';
import { CATALOG_SAMPLE, importCatalog } from '../support/catalog.js';
import { browserSkipReason, screenshot, useChromium, watchedContext } from '../support/browser.js';
import { useTestServer } from '../support/server.js';
import type { Actor, TestServer } from '../support/server.js';
import { createPrescription } from '../support/e2e.js';
import type { Created } from '../support/e2e.js';
import { act, withChangedContent } from './counter-steps.js';
import {
  SAMPLE_MEDICAMENTS,
  fillMedicament,
  fillPatient,
  fillPrescriber,
  screens,
  settlesTo,
  signIn,
} from './steps.js';

const PHONE_WIDTH = 390;

const VIEWPORTS = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: PHONE_WIDTH, height: 844 },
] as const;

/** Past a token's lifetime (one hour); the service's clock only ever moves forward. */
const EXPIRE_MS = 2 * 3600_000;

/** English last: the steps find the controls by their English names. */
const LANGS = ['de', 'fr', 'en'] as const;

/**
 * Runs axe-core on `page` in each language, switched with the page's own language buttons (by
 * the DOM, so a modal dialog in front of them stays open), and leaves the page in English.
 */
async function accessibleInAllLanguages(page: Page, where: string): Promise<void> {
  for (const lang of LANGS) {
    await page.evaluate((l) => {
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const doc = (globalThis as any).document;
      doc.querySelector(`.lang-switch button[lang="${l}"]`).click();
    }, lang);
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const docLang = () => page.evaluate(() => (globalThis as any).document.documentElement.lang);
    await settlesTo(docLang, lang);
    await assertAccessible(page, `${where} (${lang}, ${page.viewportSize()?.width} px)`);
    if (page.viewportSize()?.width === PHONE_WIDTH) await checkReflow(page, `${where} (${lang})`);
  }
}

/** The states that scrolled sideways on the phone, each named; the walk asserts none did. */
const overflowing: string[] = [];

/** Notes `where` when the page scrolls sideways there (WCAG 1.4.10 Reflow). */
async function checkReflow(page: Page, where: string): Promise<void> {
  const [scroll, client] = await page.evaluate(() => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const root = (globalThis as any).document.documentElement;
    return [root.scrollWidth as number, root.clientWidth as number];
  });
  if (scroll > client) overflowing.push(`${where}: ${scroll} > ${client} px`);
}

/** Fails, naming each, when a state walked so far scrolled sideways on the phone. */
function assertNothingOverflowed(): void {
  const found = overflowing.splice(0);
  assert.deepEqual(found, [], `scrolls sideways at ${PHONE_WIDTH} px:\n${found.join('\n')}`);
}

/** Pastes `link` at the counter (after "Next prescription" when one is loaded) and verifies it. */
async function verifyAt(counter: Locator, link: string): Promise<void> {
  const next = counter.getByRole('button', { name: 'Next prescription' });
  if ((await next.count()) > 0) await next.click();
  await counter.getByLabel('Or paste the link').fill(link);
  await counter.getByRole('button', { name: 'Verify', exact: true }).click();
  await counter.locator('#verify-title').waitFor();
}

/** Walks every state on `viewport` and runs axe-core on each; screenshots on the desktop. */
async function walk(
  server: TestServer,
  browser: () => Browser,
  viewport: (typeof VIEWPORTS)[number],
): Promise<void> {
  const shoot = viewport.name === 'desktop';
  const watched = await watchedContext(browser(), server.url);
  const { page } = watched;
  await page.setViewportSize({ width: viewport.width, height: viewport.height });
  const { counter, desk } = screens(page);
  // Tokens of this walk (the suite's may be older than the service allows).
  const fresh = async (actor: Actor): Promise<Actor> => ({
    ...actor,
    token: await server.tokenFor(actor.clientId, actor.secret),
  });
  const doctor = await fresh(server.doctor);
  const pharmacist2 = await fresh(server.pharmacist2);
  const created = (): Promise<Created> => createPrescription(server, undefined, doctor);

  // Desk: sign-in, then the empty form with the (loaded) list of issued prescriptions.
  const earlier = await created();
  await page.goto(`${server.url}/app/#desk`);
  await desk.getByLabel('Client ID').waitFor();
  await accessibleInAllLanguages(page, 'desk sign-in');
  await signIn(desk, server.doctor);
  const list = desk.getByRole('region', { name: 'Issued prescriptions' });
  await list.locator(`li[data-prescription-id="${earlier.id}"]`).waitFor();
  await accessibleInAllLanguages(page, 'desk empty form and list');

  // A product found by name in the catalogue.
  const search = desk
    .getByRole('group', { name: 'Medicament 1' })
    .getByLabel('Find a product (name)');
  await search.fill('dormi');
  await desk.getByRole('list', { name: 'Products found' }).getByRole('button').first().waitFor();
  await accessibleInAllLanguages(page, 'desk products found');
  await search.fill('');

  // Revoking from the list asks first.
  await list
    .locator(`li[data-prescription-id="${earlier.id}"]`)
    .getByRole('button', { name: 'Revoke' })
    .click();
  const revoke = page.getByRole('alertdialog', { name: `Revoke prescription ${earlier.id}?` });
  await revoke.waitFor();
  await accessibleInAllLanguages(page, 'desk revoke dialog');
  await revoke.getByRole('button', { name: 'No, keep it' }).click();

  // Warnings beside their fields, an unusual dose to confirm, a violation from the service.
  await fillPatient(desk, '80');
  await fillPrescriber(desk);
  await fillMedicament(desk, 0, SAMPLE_MEDICAMENTS[0]!);
  await fillMedicament(desk, 1, { ...SAMPLE_MEDICAMENTS[1]!, doses: ['0', '0', '50', '0'] });
  // A value refused at its field, and signing out with a started draft.
  const packs = desk.getByRole('group', { name: 'Medicament 1', exact: true }).getByLabel('Packs');
  await packs.fill('0');
  await desk.getByRole('button', { name: 'Create prescription' }).click();
  await desk.locator('#f-Medicaments-0-NbPack-error').waitFor();
  await accessibleInAllLanguages(page, 'desk with a value refused at its field');
  await packs.fill('1');
  await desk.getByRole('button', { name: 'Sign out' }).click();
  const leave = page.getByRole('alertdialog', { name: 'Discard the prescription being written?' });
  await leave.waitFor();
  await accessibleInAllLanguages(page, 'desk sign-out with a started draft');
  await leave.getByRole('button', { name: 'Stay and keep the entries' }).click();
  await settlesTo(() => leave.count(), 0);
  const person = desk.getByRole('group', { name: 'Prescribing person' });
  await person.getByRole('textbox', { name: 'GLN (13 digits)', exact: true }).fill('7601001234568');
  await person.getByLabel('ZSR number').focus();
  await desk.locator('#f-HcPerson-Gln-warning').waitFor();
  await accessibleInAllLanguages(page, 'desk with warnings');
  await desk.getByRole('button', { name: 'Create prescription' }).click();
  // The wrong GLN and the high dose, confirmed together.
  const dose = page.getByRole('alertdialog', { name: 'Check before issuing' });
  await dose.waitFor();
  await accessibleInAllLanguages(page, 'desk dialog confirming unusual entries');
  watched.expectRefusal(400);
  await dose.getByRole('button', { name: 'Yes, create as entered' }).click();
  await desk.locator('#f-Patient-Zip-error').waitFor();
  await accessibleInAllLanguages(page, 'desk with violations');

  // The created prescription.
  await desk.getByRole('group', { name: 'Patient' }).getByLabel('Postcode').fill('8001');
  await desk.getByRole('button', { name: 'Create prescription' }).click();
  const again = page.getByRole('alertdialog', { name: 'Check before issuing' });
  const panel = desk.locator('section.created');
  await Promise.race([again.waitFor(), panel.waitFor()]);
  if (await again.isVisible()) {
    await again.getByRole('button', { name: 'Yes, create as entered' }).click();
  }
  await panel.getByRole('img').waitFor();
  const link = await desk.locator('#created-link').inputValue();
  await accessibleInAllLanguages(page, 'desk created panel');

  // Counter: sign-in, empty, an open prescription, the force dialog, a revoked prescription.
  await page.getByRole('link', { name: 'Pharmacy counter' }).click();
  await counter.getByLabel('Client ID').waitFor();
  await accessibleInAllLanguages(page, 'counter sign-in');
  await signIn(counter, server.pharmacist);
  await accessibleInAllLanguages(page, 'counter empty');
  const open = await created();
  await verifyAt(counter, open.link);
  await counter.locator('table.medicament-status').waitFor();
  await accessibleInAllLanguages(page, 'counter with an open prescription');

  await counter
    .locator(`li.dispense-line[data-medicament-id="${MED_A}"]`)
    .getByLabel('Packs to dispense now')
    .fill('2');
  await counter.getByRole('button', { name: 'Dispense the packs entered (partial)' }).click();
  const force = page.getByRole('alertdialog', { name: 'Dispense against the prescription?' });
  await force.waitFor();
  await accessibleInAllLanguages(page, 'counter force dialog');
  if (shoot) await screenshot(page, 'counter-force', false);
  await force.getByRole('button', { name: 'No, do not dispense' }).click();
  await settlesTo(() => force.count(), 0);

  // Locked by this pharmacy, fully dispensed, forced once more; the cancel dialog.
  const status = (section: string) => counter.locator(`${section} [role="status"]`);
  await counter.getByRole('button', { name: 'Lock', exact: true }).click();
  await settlesTo(() => status('.lock-panel').innerText(), 'Prescription locked.');
  await accessibleInAllLanguages(page, 'counter locked by this pharmacy');
  await counter.getByRole('button', { name: 'Sign out' }).click();
  const signOut = page.getByRole('dialog', { name: 'You still hold the lock' });
  await signOut.waitFor();
  await accessibleInAllLanguages(page, 'counter sign-out question');
  await signOut.getByRole('button', { name: 'Stay here' }).click();
  await signOut.waitFor({ state: 'detached' });
  await counter.getByRole('button', { name: 'Dispense the rest' }).click();
  await settlesTo(() => status('section.dispense').innerText(), 'Full dispensation recorded.');
  await counter.getByRole('button', { name: 'Dispense anyway…' }).click();
  await force.getByLabel('Reason (recorded with the dispensation)').fill('Packung beschädigt');
  await force.getByRole('button', { name: 'Yes, dispense anyway' }).click();
  await counter.locator('ol.timeline > li[data-forced="true"]').waitFor();
  await accessibleInAllLanguages(page, 'counter fully dispensed, a forced event');
  await counter
    .locator('ol.timeline > li[data-forced="true"]')
    .getByRole('button', { name: /Cancel this event/ })
    .click();
  const cancel = page.getByRole('alertdialog', { name: 'Cancel this dispensation?' });
  await cancel.waitFor();
  await accessibleInAllLanguages(page, 'counter cancel dialog');
  await cancel.getByRole('button', { name: 'Yes, cancel it' }).click();
  await cancel.waitFor({ state: 'detached' });
  // One's own cancellation can itself be undone (SPEC.md §5): the undo dialog.
  await counter
    .locator('ol.timeline > li[data-event-type="cancel"]')
    .getByRole('button', { name: /Cancel this event/ })
    .click();
  const undo = page.getByRole('alertdialog', { name: 'Undo this cancellation?' });
  await undo.waitFor();
  await accessibleInAllLanguages(page, 'counter undo-cancellation dialog');
  await undo.getByRole('button', { name: 'No, keep it' }).click();
  await undo.waitFor({ state: 'detached' });

  // "Next prescription" with the lock still held asks first.
  await counter.getByRole('button', { name: 'Next prescription' }).click();
  const release = page.getByRole('dialog', { name: 'You still hold the lock' });
  await release.waitFor();
  await accessibleInAllLanguages(page, 'counter release dialog');
  await release.getByRole('button', { name: 'Unlock and continue' }).click();
  await release.waitFor({ state: 'detached' });

  // A prescription another pharmacy has locked, then a revoked one.
  const elsewhere = await created();
  await act(server, pharmacist2, `/ePrescription/lock/${elsewhere.id}?reason=Kundin`);
  await verifyAt(counter, elsewhere.link);
  await counter.locator('.lock-holder').waitFor();
  await accessibleInAllLanguages(page, 'counter locked by another pharmacy');

  const revoked = await created();
  await act(server, doctor, `/ePrescription/revoke/${revoked.id}`);
  await verifyAt(counter, revoked.link);
  await settlesTo(() => counter.locator('#verify-title').getAttribute('data-headline'), 'revoked');
  await accessibleInAllLanguages(page, 'counter with a revoked prescription');
  if (shoot) {
    // The headline, its flags and the disabled actions in view.
    await counter.locator('#verify-title').evaluate((h) => {
      h.scrollIntoView({ block: 'start' });
      h.ownerDocument.defaultView?.scrollBy(0, -100);
    });
    await screenshot(page, 'counter-revoked', false);
  }

  // A forged link: another product in the document, issuer, time and signature kept.
  const forged = withChangedContent(open.link, (doc) => ({
    ...doc,
    Medicaments: [{ ...doc.Medicaments[0], Id: '7680999999999', NbPack: 5 }],
  }));
  await verifyAt(counter, forged);
  await counter.locator('[data-failure]').first().waitFor();
  await counter.locator('details[data-altered] > summary').click();
  await accessibleInAllLanguages(page, 'counter with a forged link');

  // A bare CHMED16A document (no link): read, and said to be unverifiable.
  const bare = revoked.link.slice(revoked.link.indexOf('#') + 1).split('&')[0]!;
  await counter.getByRole('button', { name: 'Next prescription' }).click();
  await counter.getByLabel('Or paste the link').fill(bare);
  await counter.getByRole('button', { name: 'Verify', exact: true }).click();
  await counter.locator('[data-bare]').waitFor();
  await accessibleInAllLanguages(page, 'counter with a bare document');

  // The patient view of the created prescription.
  const patient = await watched.context.newPage();
  await patient.setViewportSize({ width: viewport.width, height: viewport.height });
  await patient.goto(link);
  await patient.locator('[data-state="valid"]').waitFor();
  await accessibleInAllLanguages(patient, 'patient view');
  await patient.goto(open.link);
  await patient.locator('[data-state="dispensed"]').waitFor();
  await accessibleInAllLanguages(patient, 'patient view, dispensed');
  await patient.goto(revoked.link);
  await patient.locator('[data-state="revoked"]').waitFor();
  await accessibleInAllLanguages(patient, 'patient view, revoked');
  // The status check failed (an overloaded service): the offer to check again.
  await patient.route('**/ePrescription/status', (route) =>
    route.fulfill({ status: 503, contentType: 'application/json', body: '{}' }),
  );
  watched.expectRefusal(503);
  await patient.goto(link);
  await patient.locator('[data-state="unreachable"]').waitFor();
  await accessibleInAllLanguages(patient, 'patient view, status not checked');
  await patient.unroute('**/ePrescription/status');
  // No link, and a link that carries no prescription.
  const rx = new URL(link);
  await patient.goto(`${rx.origin}${rx.pathname}`);
  await patient.locator('main .notice').waitFor();
  await accessibleInAllLanguages(patient, 'patient view without a link');
  await patient.goto(`${rx.origin}${rx.pathname}#CHMED16A1notaprescription`);
  await patient.reload();
  await patient.locator('main .notice-bad').waitFor();
  await accessibleInAllLanguages(patient, 'patient view, a bad link');

  watched.assertClean();
  await watched.context.close();
  assertNothingOverflowed();
}

describe('web page: axe-core finds no violation', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();
  // The desk's product search needs a catalogue.
  before(async () => {
    const run = await importCatalog(server, CATALOG_SAMPLE);
    assert.equal(run.status, 0, run.stderr);
  });

  for (const viewport of VIEWPORTS) {
    test(
      `every screen state in de, fr and en at ${viewport.width}x${viewport.height}`,
      { timeout: 120_000 },
      () => walk(server, browser, viewport),
    );
  }
});

describe(
  'web page: axe-core finds no violation in the sign-in-again dialog',
  { skip: browserSkipReason() },
  () => {
    const clock = { shift: 0 };
    const server = useTestServer({
      ownPrescriptionUrl: true,
      runtime: { now: () => Date.now() + clock.shift },
    });
    const browser = useChromium();

    test('the dialog over a loaded prescription, in de, fr and en, on both viewports', async () => {
      const rx = await createPrescription(server);
      const watched = await watchedContext(browser(), server.url);
      const { page } = watched;
      const { counter } = screens(page);
      await page.goto(`${server.url}/app/#counter`);
      await signIn(counter, server.pharmacist);
      await verifyAt(counter, rx.link);
      clock.shift += EXPIRE_MS;
      watched.expectRefusal(401);
      await counter.getByRole('button', { name: 'Dispense the rest' }).click();
      const dialog = page.getByRole('dialog', { name: 'Sign in again' });
      await dialog.waitFor();
      for (const viewport of VIEWPORTS) {
        await page.setViewportSize({ width: viewport.width, height: viewport.height });
        await accessibleInAllLanguages(page, 'counter sign-in-again dialog');
      }
      // Signed in again (declining at the counter re-opens the dialog: its refresh is refused too).
      await dialog.getByLabel('Client secret').fill(server.pharmacist.secret);
      await dialog.getByRole('button', { name: 'Sign in and continue' }).click();
      await settlesTo(() => dialog.count(), 0);
      assertNothingOverflowed();
      watched.assertClean();
      await watched.context.close();
    });
  },
);
