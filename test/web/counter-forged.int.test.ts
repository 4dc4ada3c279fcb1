/**
 * A link that fails its checks at the counter, in Chromium: its content changed with issuer, time
 * and signature kept, or only its signature changed. The counter offers no dispensation, lock,
 * force or cancel; to a pharmacy that dispensed on the prescription (SPEC.md §10 "Who sees what")
 * it shows the stored medicaments (not the altered content) and says what failed; and nothing is
 * recorded on the genuine prescription.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { MED_A, MED_B } from '../support/fixtures.js';
import { browserSkipReason, screenshot, useChromium, watchedContext } from '../support/browser.js';
import { useTestServer } from '../support/server.js';
import {
  act,
  created,
  openAtCounter,
  packages,
  verifiedAs,
  withChangedContent,
  withChangedSignature,
} from './counter-steps.js';
import type { Doc } from './steps.js';

/** Another product, 5 packages: the kind of change a forger makes. */
const OTHER_PRODUCT = '7680999999999';

function anotherProduct(doc: Doc): Doc {
  const [first, ...rest] = doc.Medicaments as Doc[];
  return { ...doc, Medicaments: [{ ...first, Id: OTHER_PRODUCT, NbPack: 5 }, ...rest] };
}

/** Every action control of the counter that records something. */
const ACTIONS = [
  'Dispense the rest',
  'Dispense the packs entered (partial)',
  'Dispense anyway…',
  'Lock',
  'Unlock',
  'Cancel this event',
];

/** The action controls of `counter` that are enabled: none may be. */
async function enabledActions(counter: Locator): Promise<string[]> {
  const enabled: string[] = [];
  for (const name of ACTIONS) {
    for (const button of await counter.getByRole('button', { name }).all()) {
      if (await button.isEnabled()) enabled.push(name);
    }
  }
  return enabled;
}

const FORGERIES = [
  {
    name: 'content changed, issuer, time and signature kept',
    forge: (link: string) => withChangedContent(link, anotherProduct),
    failures: ['signature', 'content'],
  },
  {
    name: 'only the signature changed',
    forge: withChangedSignature,
    failures: ['signature'],
  },
] as const;

describe('web page: a forged link at the counter', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  for (const forgery of FORGERIES) {
    test(`${forgery.name}: the stored medicaments, what failed, nothing offered, nothing recorded`, async () => {
      const rx = await created(server);
      // This pharmacy dispensed on it and took that back: it reads the history through a forged
      // link (SPEC.md §10 "Who sees what"), the packages as they were.
      const partial = `/ePrescription/dispense/${rx.id}`;
      await act(server, server.pharmacist, partial, [{ id: MED_B, amount: 1 }]);
      const dispensed = (await verifiedAs(server, server.pharmacist, rx.link)).events as Doc[];
      await act(
        server,
        server.pharmacist,
        `/ePrescription/cancel/${rx.id}/event/${dispensed[1]!.id}`,
      );
      const watched = await watchedContext(browser(), server.url);
      const counter = await openAtCounter(
        watched.page,
        server,
        server.pharmacist,
        forgery.forge(rx.link),
      );
      assert.equal(await counter.locator('#verify-title').getAttribute('data-headline'), 'invalid');
      assert.deepEqual(
        await counter
          .locator('[data-failure]')
          .evaluateAll((items) => items.map((li) => li.getAttribute('data-failure'))),
        [...forgery.failures],
      );
      assert.deepEqual(await enabledActions(counter), []);
      // The genuine prescription as stored: its ids and packages, not the forger's product.
      const rows = counter.locator('table.medicament-status tbody tr');
      assert.deepEqual(
        await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-medicament-id'))),
        [MED_A, MED_B],
      );
      assert.deepEqual(await packages(counter), [
        ['1', '0', '1'],
        ['8', '0', '8'],
      ]);
      // No field to dispense, and the link's own content only apart, marked, closed.
      assert.equal(await counter.getByLabel('Packs to dispense now').count(), 0);
      assert.equal(await counter.locator('[data-patient]').count(), 0);
      const altered = counter.locator('details[data-altered]');
      assert.equal(await altered.getAttribute('open'), null);
      assert.equal(
        await counter.locator(`[data-medicament-id="${OTHER_PRODUCT}"]:visible`).count(),
        0,
      );
      // The README shows the counter refusing the first forgery.
      if (forgery === FORGERIES[0]) await screenshot(watched.page, 'counter-forged', false);
      const events = (await verifiedAs(server, server.pharmacist, rx.link)).events as Doc[];
      assert.deepEqual(
        events.map((e) => e.type),
        ['create', 'partial_dispense', 'cancel'],
      );
      watched.assertClean();
      await watched.context.close();
    });
  }
});
