/**
 * The counter at a glance, in Chromium: one headline state in plain words, every action the
 * service would refuse disabled with the reason beside it, the service's packages table
 * refreshed after each action, "dispense the rest" as one click, answers next to the button
 * pressed (announced), and a lock held by another pharmacy shown with its holder and end.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { MED_B } from '../support/fixtures.js';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import { useTestServer } from '../support/server.js';
import { act, created, openAtCounter, packages } from './counter-steps.js';
import { screens, settlesTo, signIn } from './steps.js';

describe('web page: the counter at a glance', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  test('a revoked prescription says so and offers no dispense or lock', async () => {
    const rx = await created(server);
    await act(server, server.doctor, `/ePrescription/revoke/${rx.id}`);
    const watched = await watchedContext(browser(), server.url);
    const counter = await openAtCounter(watched.page, server, server.pharmacist, rx.link);

    const headline = counter.locator('#verify-title');
    assert.equal(await headline.innerText(), 'Revoked — do not dispense');
    assert.equal(await headline.getAttribute('data-headline'), 'revoked');
    for (const name of ['Dispense the rest', 'Dispense the packs entered (partial)', 'Lock']) {
      const button = counter.getByRole('button', { name, exact: true });
      assert.ok(await button.isDisabled(), `${name} is disabled`);
    }
    // The reason stands beside the disabled buttons and is their description.
    const rest = counter.getByRole('button', { name: 'Dispense the rest' });
    assert.equal(
      await rest.evaluate(
        (b) => b.ownerDocument.getElementById(b.getAttribute('aria-describedby')!)?.textContent,
      ),
      'The prescription has been revoked.',
    );
    assert.match(await counter.locator('.lock-panel').innerText(), /has been revoked/);
    assert.equal(await counter.getByLabel('Packs to dispense now').first().isDisabled(), true);
    // Focus moved to the result of the verify.
    assert.ok(await headline.evaluate((h) => h === h.ownerDocument.activeElement));
    // The same in German and French.
    const languages = watched.page.getByRole('group', { name: 'Language' });
    await languages.getByRole('button', { name: 'Deutsch' }).click();
    await settlesTo(() => headline.innerText(), 'Widerrufen — nicht abgeben');
    assert.equal(
      await counter.locator('#dispense-why').innerText(),
      'Das Rezept wurde widerrufen.',
    );
    await watched.page
      .getByRole('group', { name: 'Sprache' })
      .getByRole('button', { name: 'Français' })
      .click();
    await settlesTo(() => headline.innerText(), 'Révoquée — ne pas délivrer');
    watched.assertClean();
    await watched.context.close();
  });

  test('the packages table follows each dispensation; "dispense the rest" takes what remains', async () => {
    const rx = await created(server);
    const watched = await watchedContext(browser(), server.url);
    const counter = await openAtCounter(watched.page, server, server.pharmacist, rx.link);
    assert.deepEqual(await packages(counter), [
      ['1', '0', '1'],
      ['8', '0', '8'],
    ]);
    assert.equal(await counter.locator('#verify-title').innerText(), 'Ready to dispense');

    // One pack of the second medicament: the table says 7 remain, and the answer is beside the button.
    const second = counter.locator(`li.dispense-line[data-medicament-id="${MED_B}"]`);
    await second.getByLabel('Packs to dispense now').fill('1');
    await counter.getByRole('button', { name: 'Dispense the packs entered (partial)' }).click();
    const answer = counter.locator('section.dispense [role="status"]');
    await settlesTo(() => answer.innerText(), 'Partial dispensation recorded.');
    assert.deepEqual(await packages(counter), [
      ['1', '0', '1'],
      ['8', '1', '7'],
    ]);
    assert.equal(
      await counter
        .locator('section.dispense')
        .evaluate((section) => section.contains(section.ownerDocument.activeElement)),
      true,
      'focus moved to the answer next to the button',
    );

    // The rest, in one click.
    await counter.getByRole('button', { name: 'Dispense the rest' }).click();
    await settlesTo(() => answer.innerText(), 'Full dispensation recorded.');
    assert.deepEqual(await packages(counter), [
      ['1', '1', '0'],
      ['8', '8', '0'],
    ]);
    assert.equal(await counter.locator('#verify-title').innerText(), 'Fully dispensed');
    for (const input of await counter.getByLabel('Packs to dispense now').all()) {
      assert.ok(await input.isDisabled(), 'nothing remains: the inputs are disabled');
    }
    assert.ok(await counter.getByRole('button', { name: 'Dispense the rest' }).isDisabled());
    assert.equal(
      await counter.locator('#dispense-why').innerText(),
      'Nothing remains to dispense.',
    );

    const verified = await server.request('POST', '/ePrescription/verify', {
      token: server.pharmacist.token,
      body: rx.link,
      contentType: 'text/plain',
    });
    assert.deepEqual(
      verified.json.events.map((e: { type: string }) => e.type),
      ['create', 'partial_dispense', 'full_dispense'],
    );
    assert.deepEqual(
      verified.json.medicaments.map((m: { remaining: number }) => m.remaining),
      [0, 0],
    );
    watched.assertClean();
    await watched.context.close();
  });

  test('a lock held by another pharmacy names it and its end, and offers no "Unlock"', async () => {
    const rx = await created(server);
    await act(server, server.pharmacist2, `/ePrescription/lock/${rx.id}?reason=Kundin`);
    const watched = await watchedContext(browser(), server.url);
    const counter = await openAtCounter(watched.page, server, server.pharmacist, rx.link);

    const headline = await counter.locator('#verify-title').innerText();
    assert.match(headline, /^Locked by Bahnhof Apotheke until \d{2}:\d{2}$/);
    const holder = counter.locator('.lock-holder');
    assert.match(await holder.innerText(), /^Locked by Bahnhof Apotheke until \d{2}:\d{2}\.$/);
    assert.equal(await counter.getByRole('button', { name: 'Unlock' }).count(), 0);
    assert.ok(await counter.getByRole('button', { name: 'Lock', exact: true }).isDisabled());
    assert.ok(await counter.getByRole('button', { name: 'Dispense the rest' }).isDisabled());
    assert.match(await counter.locator('#dispense-why').innerText(), /Locked by Bahnhof Apotheke/);
    watched.assertClean();
    await watched.context.close();
  });

  test('locking answers beside the lock button; "Next prescription" offers to release the lock', async () => {
    const rx = await created(server);
    const watched = await watchedContext(browser(), server.url);
    const counter = await openAtCounter(watched.page, server, server.pharmacist, rx.link);
    // The lock panel comes before the dispense buttons in tab order.
    const order = await counter.evaluate((root) => {
      const lock = root.querySelector('.lock-panel button')!;
      const rest = root.querySelector('section.dispense .actions button')!;
      return lock.compareDocumentPosition(rest) & 4; /* Node.DOCUMENT_POSITION_FOLLOWING */
    });
    assert.ok(order, 'the lock button precedes the dispense buttons');

    await counter.getByRole('button', { name: 'Lock', exact: true }).click();
    const answer = counter.locator('.lock-panel [role="status"]');
    await settlesTo(() => answer.innerText(), 'Prescription locked.');
    assert.match(await counter.locator('.lock-holder').innerText(), /^Locked by you until/);

    await counter.getByRole('button', { name: 'Next prescription' }).click();
    const ask = watched.page.getByRole('dialog', { name: 'You still hold the lock' });
    await ask.waitFor();
    await ask.getByRole('button', { name: 'Unlock and continue' }).click();
    await counter.getByLabel('Or paste the link').waitFor();
    await settlesTo(
      () =>
        counter
          .getByLabel('Or paste the link')
          .evaluate((field) => field === field.ownerDocument.activeElement),
      true,
      'focus is on the link field for the next prescription',
    );
    const verified = await server.request('POST', '/ePrescription/verify', {
      token: server.pharmacist.token,
      body: rx.link,
      contentType: 'text/plain',
    });
    assert.equal(verified.json.locked, false);
    watched.assertClean();
    await watched.context.close();
  });

  test('a bare CHMED16A1 document is read and said to be unverifiable', async () => {
    const rx = await created(server);
    const bare = rx.link.slice(rx.link.indexOf('#') + 1).split('&')[0]!;
    const watched = await watchedContext(browser(), server.url);
    const { counter } = screens(watched.page);
    await watched.page.goto(`${server.url}/app/#counter`);
    await signIn(counter, server.pharmacist);
    await counter.getByLabel('Or paste the link').fill(bare);
    await counter.getByRole('button', { name: 'Verify', exact: true }).click();
    const alert = counter.locator('[role="alert"]:not(:empty)').first();
    await alert.waitFor();
    assert.match(await alert.innerText(), /cannot be verified/);
    assert.match(await counter.locator('[data-bare]').innerText(), /Anna Muster/);
    watched.assertClean();
    await watched.context.close();
  });
});
