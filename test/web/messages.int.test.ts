/**
 * The service's own messages in the page's language: a violation of the document ("must be 4 or
 * 5 digits") worded by its code and values, and a refusal ("The prescription has been revoked.")
 * by its cause code, in German and French; the English text stays only for codes the page does
 * not know.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import { createPrescription } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import { fillSample, screens, settlesTo, signIn } from './steps.js';

describe('web page: the service’s messages translated', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  test('a violation of the document in German and French', { timeout: 60_000 }, async () => {
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    const { desk } = screens(page);
    await page.goto(`${server.url}/app/#desk`);
    await signIn(desk, server.doctor);
    await fillSample(desk, '12');
    await page.getByRole('button', { name: 'Deutsch' }).click();
    watched.expectRefusal(400);
    await desk.getByRole('button', { name: 'Rezept ausstellen' }).click();
    const summary = desk.locator('.violations');
    await summary.waitFor();
    await settlesTo(
      () => summary.locator('li').allInnerTexts(),
      ['Patient/in, PLZ: muss 4 oder 5 Ziffern haben'],
    );
    // The field's own message, under the postcode.
    const own = desk.locator('#f-Patient-Zip-error');
    assert.equal(await own.innerText(), 'muss 4 oder 5 Ziffern haben');

    // The language switch rewords what is already shown.
    await page.getByRole('button', { name: 'Français' }).click();
    await settlesTo(
      () => summary.locator('li').allInnerTexts(),
      ['Patient·e, NPA\u202f: doit compter 4 ou 5 chiffres'],
    );
    assert.equal(await own.innerText(), 'doit compter 4 ou 5 chiffres');
    assert.ok(!(await desk.innerText()).includes('must be 4 or 5 digits'));
    watched.assertClean();
    await watched.context.close();
  });

  /** The words of the counter in one language, and the refusal expected in it. */
  const COUNTER = [
    {
      button: 'Deutsch',
      paste: 'Oder den Link einfügen',
      verify: 'Prüfen',
      verified: 'Rezept geprüft.',
      lock: 'Sperren',
      refusal: 'Das Rezept wurde widerrufen.',
    },
    {
      button: 'Français',
      paste: 'Ou coller le lien',
      verify: 'Vérifier',
      verified: 'Ordonnance vérifiée.',
      lock: 'Verrouiller',
      refusal: 'L’ordonnance a été révoquée.',
    },
  ] as const;

  test(
    'a refusal of a revoked prescription in German and French',
    { timeout: 60_000 },
    async () => {
      const watched = await watchedContext(browser(), server.url);
      const { page } = watched;
      const { counter } = screens(page);
      await page.goto(`${server.url}/app/#counter`);
      await signIn(counter, server.pharmacist);
      for (const words of COUNTER) {
        const rx = await createPrescription(server);
        await page.getByRole('button', { name: words.button }).click();
        await counter.getByLabel(words.paste).fill(rx.link);
        await counter.getByRole('button', { name: words.verify, exact: true }).click();
        await counter.getByText(words.verified).first().waitFor();
        // The prescriber revokes it while the pharmacy has it on the screen.
        const revoked = await server.request('POST', `/ePrescription/revoke/${rx.id}`, {
          token: server.doctor.token,
        });
        assert.equal(revoked.status, 200, revoked.text);
        watched.expectRefusal(403);
        await counter.getByRole('button', { name: words.lock, exact: true }).click();
        await counter.getByText(words.refusal).first().waitFor();
        assert.ok(!(await counter.innerText()).includes('The prescription has been revoked.'));
      }
      watched.assertClean();
      await watched.context.close();
    },
  );
});
