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
import { closeClean, fillSample, openSignedIn, screens, settlesTo } from './steps.js';

describe('web page: the service’s messages translated', { skip: browserSkipReason() }, () => {
  const server = useTestServer({ ownPrescriptionUrl: true });
  const browser = useChromium();

  test('a violation of the document in German and French', { timeout: 60_000 }, async () => {
    const { watched, page, desk } = await openSignedIn(browser(), server.url, server.doctor);
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
    // Nothing of the service's English answer, nor its jargon, on the German page.
    const german = await page.locator('main').innerText();
    for (const english of [
      'The prescription document is invalid',
      'must be 4 or 5 digits',
      'schema',
    ]) {
      assert.ok(!german.includes(english), `${english} in: ${german}`);
    }

    // The language switch rewords what is already shown.
    await page.getByRole('button', { name: 'Français' }).click();
    await settlesTo(
      () => summary.locator('li').allInnerTexts(),
      ['Patient·e, NPA\u202f: doit compter 4 ou 5 chiffres'],
    );
    assert.equal(await own.innerText(), 'doit compter 4 ou 5 chiffres');
    assert.ok(!(await desk.innerText()).includes('must be 4 or 5 digits'));
    await closeClean(watched);
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
      const { watched, page, counter } = await openSignedIn(
        browser(),
        server.url,
        server.pharmacist,
        'counter',
      );
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
      await closeClean(watched);
    },
  );

  test('a refusal naming the lock holder, in German', { timeout: 60_000 }, async () => {
    const rx = await createPrescription(server);
    const { watched, page, counter } = await openSignedIn(
      browser(),
      server.url,
      server.pharmacist,
      'counter',
    );
    await page.getByRole('button', { name: 'Deutsch' }).click();
    await counter.getByLabel('Oder den Link einfügen').fill(rx.link);
    await counter.getByRole('button', { name: 'Prüfen', exact: true }).click();
    await counter.getByText('Rezept geprüft.').first().waitFor();
    // Another pharmacy locks it meanwhile.
    const locked = await server.request('POST', `/ePrescription/lock/${rx.id}`, {
      token: server.pharmacist2.token,
    });
    assert.equal(locked.status, 200, locked.text);
    watched.expectRefusal(409);
    await counter.getByRole('button', { name: 'Sperren', exact: true }).click();
    await counter
      .getByText(`Das Rezept ist bereits von ${server.pharmacist2.name} gesperrt.`)
      .first()
      .waitFor();
    await closeClean(watched);
  });

  test('titles, names, notes and dates alike in every language', { timeout: 60_000 }, async () => {
    const rx = await createPrescription(server);
    const watched = await watchedContext(browser(), server.url);
    const { page } = watched;
    await page.goto(`${server.url}/app/#counter`);
    await page.getByRole('button', { name: 'Deutsch' }).click();
    await settlesTo(() => page.title(), 'E-Rezept · erx');

    // The French session line names the role in French: nothing to elide before a name.
    const { counter } = screens(page);
    await page.getByRole('button', { name: 'Français' }).click();
    await counter.getByLabel('ID client').fill(server.pharmacist.clientId);
    await counter.getByLabel('Secret client').fill(server.pharmacist.secret);
    await counter.getByRole('button', { name: 'Se connecter' }).click();
    await counter
      .getByText(`Connecté·e en tant que pharmacie\u202f: ${server.pharmacist.name}`)
      .waitFor();

    // The patient sees the prescriber's name without the actor id, and the same date form.
    for (const [button, issued, decoded] of [
      ['Deutsch', 'Ausgestellt von Dr. med. Lukas Beispiel am', 'Ihrem Browser dekodiert'],
      ['English', 'Issued by Dr. med. Lukas Beispiel on', 'decoded in your browser'],
    ] as const) {
      await page.goto(rx.link);
      await page.getByRole('button', { name: button }).click();
      const main = page.locator('main');
      await main.getByText(issued).waitFor();
      const text = await main.innerText();
      assert.ok(!text.includes('(HIN|'), text);
      assert.ok(text.includes('21.05.1968'), text);
      assert.ok(text.includes(decoded), text);
    }
    assert.ok(!(await page.locator('main').innerText()).includes('entschlüsselt'));
    await closeClean(watched);
  });
});
