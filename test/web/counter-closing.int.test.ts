/**
 * HIN's closing step at the counter, in Chromium (SPEC.md §5 "Rules of state"): when partial
 * dispensations have covered the prescription and no full dispensation stands, the counter offers
 * "Close the prescription" (a full dispensation without force) and no forced dispensation; while
 * packs remain, "Dispense the rest" is the full dispensation and nothing is offered to close.
 * Either way the recorded event is an unforced `full_dispense`, and afterwards only force remains.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { assertAccessible } from '../support/axe.js';
import { MED_A, MED_B } from '../support/fixtures.js';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import { useTestServer } from '../support/server.js';
import { act, created, openAtCounter, packages, verifiedAs } from './counter-steps.js';
import { settlesTo } from './steps.js';

describe("web page: HIN's closing step at the counter", { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  const buttons = (counter: Locator) => {
    const dispense = counter.locator('section.dispense');
    return {
      close: dispense.getByRole('button', { name: 'Close the prescription' }),
      force: dispense.getByRole('button', { name: 'Dispense anyway…' }),
      rest: dispense.getByRole('button', { name: 'Dispense the rest' }),
      status: dispense.locator('[role="status"]'),
    };
  };

  /** The events' types and `event_data`, as the service recorded them. */
  const recorded = async (link: string) =>
    (
      (await verifiedAs(server, server.pharmacist, link)).events as {
        type: string;
        event_data: unknown;
      }[]
    ).map((e) => [e.type, e.event_data]);

  test('partials covered every medicament: "Close the prescription" instead of force, an unforced full dispensation', async () => {
    const rx = await created(server);
    const path = `/ePrescription/dispense/${rx.id}`;
    await act(server, server.pharmacist, path, [
      { id: MED_A, amount: 1 },
      { id: MED_B, amount: 3 },
    ]);
    await act(server, server.pharmacist, path, [{ id: MED_B, amount: 5 }]);
    const watched = await watchedContext(browser(), server.url);
    const counter = await openAtCounter(watched.page, server, server.pharmacist, rx.link);
    const { close, force, rest, status } = buttons(counter);

    await close.waitFor();
    assert.equal(await force.count(), 0, 'no forced dispensation is offered');
    assert.equal(await rest.isDisabled(), true, 'nothing remains to dispense');
    assert.match(
      await counter.locator('[data-why="closing"]').innerText(),
      /dispensed in parts.*dispenses nothing more/,
    );
    assert.deepEqual(await packages(counter), [
      ['1', '1', '0'],
      ['8', '8', '0'],
    ]);
    await assertAccessible(watched.page, 'counter offering to close the prescription');

    await close.click();
    await settlesTo(() => status.innerText(), 'Prescription closed: full dispensation recorded.');
    assert.deepEqual((await recorded(rx.link)).slice(-1), [['full_dispense', {}]]);
    // Closed: nothing to close any more; only a forced dispensation is left.
    await force.waitFor();
    assert.equal(await close.count(), 0);
    assert.deepEqual(await packages(counter), [
      ['1', '1', '0'],
      ['8', '8', '0'],
    ]);
    watched.assertClean();
    await watched.context.close();
  });

  test('packs remain: "Dispense the rest" is the full dispensation, nothing to close and no force', async () => {
    const rx = await created(server);
    await act(server, server.pharmacist, `/ePrescription/dispense/${rx.id}`, [
      { id: MED_B, amount: 3 },
    ]);
    const watched = await watchedContext(browser(), server.url);
    const counter = await openAtCounter(watched.page, server, server.pharmacist, rx.link);
    const { close, force, rest, status } = buttons(counter);

    assert.equal(await rest.isDisabled(), false);
    assert.equal(await close.count(), 0, 'nothing to close while packs remain');
    assert.equal(await force.count(), 0);
    assert.equal(await counter.locator('[data-why="closing"]').count(), 0);

    await rest.click();
    await settlesTo(() => status.innerText(), 'Full dispensation recorded.');
    assert.deepEqual(await packages(counter), [
      ['1', '1', '0'],
      ['8', '8', '0'],
    ]);
    assert.deepEqual((await recorded(rx.link)).slice(-1), [['full_dispense', {}]]);
    await force.waitFor();
    assert.equal(await close.count(), 0, 'a standing full dispensation leaves nothing to close');
    watched.assertClean();
    await watched.context.close();
  });
});
