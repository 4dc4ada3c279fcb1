/**
 * An expired token in Chromium: the service's clock moves past the token's hour, and the next
 * "Create prescription" at the desk, or a dispensation at the counter, asks to sign in again in a
 * dialog; everything on the screen stays, and the action then completes.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { browserSkipReason, useChromium } from '../support/browser.js';
import { createPrescription } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import type { Actor } from '../support/server.js';
import { closeClean, createdDocument, fillSample, openSignedIn, settlesTo } from './steps.js';
import type { Doc } from './steps.js';

// Past the token lifetime (one hour); the service's clock only ever moves forward.
const EXPIRE_MS = 2 * 3600_000;

/** Every control's value in `scope`, in document order (a checkbox as `true`/`false`). */
function values(scope: Locator): Promise<string[]> {
  return scope.locator('input, select, textarea').evaluateAll((controls) =>
    controls.map((c) => {
      const control = c as unknown as { type?: string; checked?: boolean; value: string };
      return control.type === 'checkbox' ? String(control.checked) : control.value;
    }),
  );
}

/** Signs `actor` in again in the dialog that has opened over the screen. */
async function signInAgain(page: Page, actor: Actor): Promise<Locator> {
  const dialog = page.getByRole('dialog', { name: 'Sign in again' });
  await dialog.waitFor();
  assert.equal(await dialog.getByLabel('Client ID').inputValue(), actor.clientId);
  // Focus is in the dialog, on the secret.
  await settlesTo(() => page.locator(':focus').getAttribute('name'), 'client_secret');
  return dialog;
}

describe('web page: an expired session is renewed in place', { skip: browserSkipReason() }, () => {
  let shift = 0;
  const server = useTestServer({
    ownPrescriptionUrl: true,
    runtime: { now: () => Date.now() + shift },
  });
  const browser = useChromium();

  test(
    'the desk keeps every field after signing in again, and the prescription is created',
    { timeout: 60_000 },
    async () => {
      const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
      await fillSample(desk);
      const form = desk.locator('form.desk-form');
      const before = await values(form);

      shift += EXPIRE_MS;
      // Declining (Escape) sends nothing and keeps the draft, still signed in.
      watched.expectRefusal(401);
      await desk.getByRole('button', { name: 'Create prescription' }).click();
      await signInAgain(page, server.doctor);
      await page.keyboard.press('Escape');
      await settlesTo(() => page.getByRole('dialog').count(), 0);
      // The refusal is said on the screen (in the service's words, by its code).
      await desk.locator('p.error[role="alert"]').waitFor();
      assert.deepEqual(await values(form), before, 'the draft stays after declining');
      assert.equal(await desk.locator('section.created').count(), 0);

      watched.expectRefusal(401);
      await desk.getByRole('button', { name: 'Create prescription' }).click();
      const dialog = await signInAgain(page, server.doctor);
      assert.deepEqual(await values(form), before, 'the draft stays while the dialog is open');
      // A wrong secret is refused in the dialog; the draft still stays.
      watched.expectRefusal(401);
      await dialog.getByLabel('Client secret').fill('not-the-secret');
      await dialog.getByRole('button', { name: 'Sign in and continue' }).click();
      await dialog.getByRole('alert').waitFor();
      await dialog.getByLabel('Client secret').fill(server.doctor.secret);
      await dialog.getByRole('button', { name: 'Sign in and continue' }).click();

      const doc = await createdDocument(desk);
      await settlesTo(() => dialog.count(), 0);
      assert.equal(doc.Patient.FName, 'Anna');
      assert.equal(doc.Medicaments.length, 2);
      assert.equal(await desk.getByRole('button', { name: 'Sign out' }).count(), 1);
      await closeClean(watched);
    },
  );

  test(
    'the counter keeps the loaded prescription after signing in again, and dispenses',
    { timeout: 60_000 },
    async () => {
      // The suite's doctor token may have expired with the clock: a fresh one.
      const token = await server.tokenFor(server.doctor.clientId, server.doctor.secret);
      const rx = await createPrescription(server, undefined, { ...server.doctor, token });
      const { watched, page, counter } = await openSignedIn(
        browser(),
        server.url,
        server.pharmacist,
        'counter',
      );
      await counter.getByLabel('Or paste the link').fill(rx.link);
      await counter.getByRole('button', { name: 'Verify', exact: true }).click();
      const dispense = counter.getByRole('button', {
        name: /Dispense everything|Dispense the rest/,
      });
      await dispense.waitFor();
      const shown = await counter.innerText();

      shift += EXPIRE_MS;
      watched.expectRefusal(401);
      await dispense.click();
      const dialog = await signInAgain(page, server.pharmacist);
      assert.equal(await counter.getByLabel('Or paste the link').inputValue(), rx.link);
      assert.ok((await counter.innerText()).includes('Anna'), 'the prescription stays loaded');
      await dialog.getByLabel('Client secret').fill(server.pharmacist.secret);
      await dialog.getByRole('button', { name: 'Sign in and continue' }).click();
      await settlesTo(() => dialog.count(), 0);

      const types = async (): Promise<string[]> =>
        ((await server.runtime.store.readChain(rx.id))?.state.events ?? []).map(
          (e) => (JSON.parse(e.body) as Doc).type,
        );
      await settlesTo(types, ['create', 'full_dispense']);
      assert.ok(shown.includes('Anna'));
      assert.equal(await counter.getByRole('button', { name: 'Sign out' }).count(), 1);
      await closeClean(watched);
    },
  );
});
