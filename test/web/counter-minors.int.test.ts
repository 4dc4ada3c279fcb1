/**
 * The counter's smaller promises, in Chromium: focus on the link field after sign-in; who the
 * prescription is for at the top; a disabled field that looks disabled; no lock on a fully
 * dispensed prescription; signing out under one's own lock asks first; and a lock that lapses is
 * shown as lapsed without pressing "Verify" again.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MED_A } from '../support/fixtures.js';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import { useTestServer } from '../support/server.js';
import { act, created, openAtCounter, verifiedAs } from './counter-steps.js';
import { screens, settlesTo, signIn } from './steps.js';

describe('web page: the counter in detail', { skip: browserSkipReason() }, () => {
  // The service's clock, moved ahead where a test needs time to pass (a lock to lapse).
  let ahead = 0;
  const server = useTestServer({
    ownPrescriptionUrl: true,
    runtime: { now: () => Date.now() + ahead },
  });
  const browser = useChromium();

  test('after sign-in the link field has focus', async () => {
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    const { counter } = screens(page);
    await page.goto(`${server.url}/app/#counter`);
    await signIn(counter, server.pharmacist);
    const field = counter.getByLabel('Or paste the link');
    await settlesTo(() => field.evaluate((f) => f === f.ownerDocument.activeElement), true);
    watched.assertClean();
    await watched.context.close();
  });

  test('who it is for heads the result; a spent medicament greys its field; no lock once dispensed', async () => {
    const rx = await created(server);
    await act(server, server.pharmacist, `/ePrescription/dispense/${rx.id}`, [
      { id: MED_A, amount: 1 },
    ]);
    const watched = await watchedContext(browser(), server.url);
    const counter = await openAtCounter(watched.page, server, server.pharmacist, rx.link);
    const patient = counter.locator('[data-patient]');
    assert.equal(await patient.innerText(), 'Prescription for Anna Muster · born 21.05.1968');
    // It stands in the result's first card, right under the headline.
    assert.equal(await patient.evaluate((p) => p.previousElementSibling?.id), 'verify-title');

    const amounts = counter.getByLabel('Packs to dispense now');
    const spent = amounts.nth(0);
    const open = amounts.nth(1);
    assert.equal(await spent.isDisabled(), true);
    const look = (field: typeof spent) =>
      field.evaluate((f) => {
        const style = f.ownerDocument.defaultView!.getComputedStyle(f);
        return `${style.backgroundColor} ${style.cursor}`;
      });
    assert.notEqual(await look(spent), await look(open), 'the disabled field looks different');
    assert.match(await look(spent), /not-allowed/);

    await counter.getByRole('button', { name: 'Dispense the rest' }).click();
    await settlesTo(
      () => counter.locator('#verify-title').getAttribute('data-headline'),
      'dispensed',
    );
    assert.equal(
      await counter.getByRole('button', { name: 'Lock', exact: true }).isDisabled(),
      true,
    );
    assert.match(await counter.locator('#lock-why').innerText(), /Nothing remains/);
    watched.assertClean();
    await watched.context.close();
  });

  test("signing out under one's own lock asks: stay, or keep it and sign out", async () => {
    const rx = await created(server);
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    const counter = await openAtCounter(page, server, server.pharmacist, rx.link);
    await counter.getByRole('button', { name: 'Lock', exact: true }).click();
    await settlesTo(
      () => counter.locator('#verify-title').getAttribute('data-headline'),
      'lockedByMe',
    );
    await counter.getByRole('button', { name: 'Sign out' }).click();
    const ask = page.getByRole('dialog', { name: 'You still hold the lock' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Stay here' }).click();
    await ask.waitFor({ state: 'detached' });
    assert.equal(await counter.locator('#verify-title').count(), 1, 'still signed in');

    await counter.getByRole('button', { name: 'Sign out' }).click();
    await ask.getByRole('button', { name: 'Keep it locked and sign out' }).click();
    await counter.getByLabel('Client ID').waitFor();
    assert.equal((await verifiedAs(server, server.pharmacist2, rx.link)).locked, true);
    watched.assertClean();
    await watched.context.close();
  });

  test('a lock that lapses is shown lapsed without verifying again', async () => {
    const rx = await created(server);
    await act(server, server.pharmacist2, `/ePrescription/lock/${rx.id}`);
    const watched = await watchedContext(browser(), server.url);
    // The page's timers run on a clock the test moves, like the service's.
    await watched.page.clock.install();
    const counter = await openAtCounter(watched.page, server, server.pharmacist, rx.link);
    const headline = counter.locator('#verify-title');
    assert.equal(await headline.getAttribute('data-headline'), 'lockedByOther');
    // Both clocks pass the lock's end (ERX_LOCK_TTL, 15 minutes by default); nothing is pressed.
    ahead = 16 * 60_000;
    try {
      await watched.page.clock.fastForward('16:00');
      await settlesTo(() => headline.getAttribute('data-headline'), 'open');
      assert.equal(
        await counter.getByRole('button', { name: 'Dispense the rest' }).isEnabled(),
        true,
      );
    } finally {
      ahead = 0;
    }
    watched.assertClean();
    await watched.context.close();
  });
});
