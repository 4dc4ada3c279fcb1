/**
 * Forcing and cancelling at the counter, in Chromium: the force dialog names each rule of the
 * prescription a dispensation overrides and each medicament concerned with its numbers, and asks
 * why; a substitute is not offered where the prescription forbids one; the timeline marks the forced event with
 * what it overrode and its reason; cancelling a dispensation asks first, and "no" cancels nothing.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MED_A, MED_B } from '../support/fixtures.js';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import { useTestServer } from '../support/server.js';
import { act, created, openAtCounter, packages } from './counter-steps.js';
import { settlesTo } from './steps.js';

describe('web page: forcing and cancelling at the counter', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  const verified = async (link: string) =>
    (
      await server.request('POST', '/ePrescription/verify', {
        token: server.pharmacist.token,
        body: link,
        contentType: 'text/plain',
      })
    ).json;

  test('a dispensation past the quantity names the rule and each medicament with its numbers, asks why and is marked forced', async () => {
    const rx = await created(server);
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    const counter = await openAtCounter(page, server, server.pharmacist, rx.link);
    const status = counter.locator('section.dispense [role="status"]');

    // The second medicament forbids substitution: its box is disabled, the reason beside it.
    const second = counter.locator(`li.dispense-line[data-medicament-id="${MED_B}"]`);
    assert.equal(await second.getByLabel('Dispense a substitute').isDisabled(), true);
    assert.equal(await second.locator('[data-why="substitution"]').count(), 1);
    const first = counter.locator(`li.dispense-line[data-medicament-id="${MED_A}"]`);
    assert.equal(await first.getByLabel('Dispense a substitute').isDisabled(), false);

    await second.getByLabel('Packs to dispense now').fill('1');
    await counter.getByRole('button', { name: 'Dispense the packs entered (partial)' }).click();
    await settlesTo(() => status.innerText(), 'Partial dispensation recorded.');

    await first.getByLabel('Packs to dispense now').fill('2');
    // A page that sends this to the service is refused (403): allowed here so the assertion below tells.
    watched.expectRefusal(403);
    const partial = counter.getByRole('button', { name: 'Dispense the packs entered (partial)' });
    await partial.click();
    const dialog = page.getByRole('alertdialog', { name: 'Dispense against the prescription?' });
    const refused = counter.locator('[role="alert"]:not(:empty)').first();
    await Promise.race([dialog.waitFor(), refused.waitFor()]);
    assert.ok(await dialog.isVisible(), 'the force dialog opens instead of a refusal');
    assert.deepEqual(await dialog.locator('[data-rule]').allInnerTexts(), [
      'more packs than prescribed',
    ]);
    const items = dialog.locator('.force-items li');
    assert.deepEqual(
      await items.evaluateAll((lis) =>
        lis.map((li) => [li.getAttribute('data-medicament-id'), li.getAttribute('data-asked')]),
      ),
      [[MED_A, '2']],
    );
    assert.match(await items.first().innerText(), /asked 2, remaining 1 of 1/);
    // The earlier confirmation no longer applies once a new question is asked, nor after "no".
    assert.equal(await status.innerText(), '');
    await dialog.getByRole('button', { name: 'No, do not dispense' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await status.innerText(), '');
    assert.equal((await verified(rx.link)).events.length, 2, 'nothing recorded before confirming');

    watched.expectRefusal(403);
    await partial.click();
    await dialog.waitFor();
    const confirm = dialog.getByRole('button', { name: 'Yes, dispense anyway' });
    assert.ok(await confirm.isDisabled(), 'a reason is required');
    await dialog
      .getByLabel('Reason (recorded with the dispensation)')
      .fill('Notfall, Arzt informiert');
    await confirm.click();

    const forced = counter.locator('ol.timeline > li[data-forced="true"]');
    await forced.waitFor();
    const text = await forced.innerText();
    assert.match(text, /forced/);
    assert.match(text, /Overrode: more packs than prescribed/);
    assert.match(text, /Reason: Notfall, Arzt informiert/);
    assert.deepEqual(await packages(counter), [
      ['1', '2', '0'],
      ['8', '1', '7'],
    ]);
    const last = (await verified(rx.link)).events.at(-1);
    assert.deepEqual(last.event_data, {
      force: true,
      overrides: ['quantity_exceeded'],
      reason: 'Notfall, Arzt informiert',
    });
    watched.assertClean();
    await watched.context.close();
  });

  test('after a full dispensation only "Dispense anyway…" remains, naming "already fully dispensed"', async () => {
    const rx = await created(server);
    await act(server, server.pharmacist, `/ePrescription/dispense/${rx.id}`);
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    const counter = await openAtCounter(page, server, server.pharmacist, rx.link);
    assert.equal(await counter.locator('#verify-title').innerText(), 'Fully dispensed');

    await counter.getByRole('button', { name: 'Dispense anyway…' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Dispense against the prescription?' });
    await dialog.waitFor();
    assert.deepEqual(await dialog.locator('[data-rule]').allInnerTexts(), [
      'already fully dispensed',
    ]);
    await dialog.getByLabel('Reason (recorded with the dispensation)').fill('Packung beschädigt');
    await dialog.getByRole('button', { name: 'Yes, dispense anyway' }).click();
    await settlesTo(
      () => counter.locator('section.dispense [role="status"]').innerText(),
      'Forced dispensation recorded.',
    );
    const forced = counter.locator('ol.timeline > li[data-forced="true"]');
    assert.match(await forced.innerText(), /Overrode: already fully dispensed/);
    assert.match(await forced.innerText(), /Reason: Packung beschädigt/);
    watched.assertClean();
    await watched.context.close();
  });

  test('cancelling a dispensation asks first; "no" cancels nothing', async () => {
    const rx = await created(server);
    await act(server, server.pharmacist, `/ePrescription/dispense/${rx.id}`, [
      { id: MED_B, amount: 2 },
    ]);
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    const counter = await openAtCounter(page, server, server.pharmacist, rx.link);
    const cancel = counter.getByRole('button', { name: /Cancel this event/ });

    await cancel.click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel this dispensation?' });
    const cancelledAtOnce = counter.locator('ol.timeline > li[data-event-type="cancel"]');
    await Promise.race([dialog.waitFor(), cancelledAtOnce.waitFor()]);
    assert.equal(await cancelledAtOnce.count(), 0, 'one click cancels nothing');
    // The safe choice has focus: Enter on opening keeps the dispensation.
    const keep = dialog.getByRole('button', { name: 'No, keep it' });
    await settlesTo(() => keep.evaluate((b) => b === b.ownerDocument.activeElement), true);
    await dialog.getByRole('button', { name: 'No, keep it' }).click();
    await dialog.waitFor({ state: 'detached' });
    assert.equal((await verified(rx.link)).events.length, 2, 'nothing cancelled');
    await settlesTo(() => cancel.evaluate((b) => b === b.ownerDocument.activeElement), true);

    await cancel.click();
    await dialog.getByRole('button', { name: 'Yes, cancel it' }).click();
    await settlesTo(
      () => counter.locator('[data-feedback="timeline"] [role="status"]').innerText(),
      'Event cancelled.',
    );
    assert.deepEqual(
      (await verified(rx.link)).events.map((e: { type: string }) => e.type),
      ['create', 'partial_dispense', 'cancel'],
    );
    assert.deepEqual(await packages(counter), [
      ['1', '0', '1'],
      ['8', '0', '8'],
    ]);
    watched.assertClean();
    await watched.context.close();
  });
});
