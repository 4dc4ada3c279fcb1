/**
 * The desk prefilled from the prescriber's profile, in Chromium. Before, a prescriber typed its
 * name, practice and GLN on every sign-in, the GLN twice (the person's and the author's). Now a
 * prescriber whose profile the operator set (`erx clients profile`) signs in and finds those
 * fields filled, says so next to them, can still change them, and the issued prescription carries
 * them (its link decoded, and verified by the service). Without a profile the desk starts empty.
 */
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Locator } from 'playwright-core';
import { decodeChmed } from '../../src/chmed16a/index.js';
import { parseLink } from '../../src/link/index.js';
import { assertAccessible } from '../support/axe.js';
import { browserSkipReason, useChromium, watchedContext } from '../support/browser.js';
import { verify } from '../support/e2e.js';
import { useTestServer } from '../support/server.js';
import type { Actor } from '../support/server.js';
import {
  SAMPLE_MEDICAMENTS,
  closeClean,
  createdLink,
  fillMedicament,
  fillPatient,
  openSignedIn,
  screens,
  signIn,
} from './steps.js';

/** A GLN with a valid GS1 check digit. */
const GLN = '7601234567890';
const NOTE = /Filled in from your prescriber profile/;

/** The prescriber's and the practice's fields the desk shows. */
function fields(desk: Locator) {
  const person = desk.getByRole('group', { name: 'Prescribing person' });
  const org = desk.getByRole('group', { name: 'Practice or organisation' });
  return {
    person,
    firstName: person.getByLabel('First name'),
    lastName: person.getByLabel('Last name'),
    gln: person.getByRole('textbox', { name: 'GLN (13 digits)', exact: true }),
    zsr: person.getByLabel('ZSR number'),
    auth: person.getByRole('textbox', { name: 'Author GLN (13 digits)', exact: true }),
    orgName: org.getByRole('textbox', { name: 'Name', exact: true }),
    street: org.getByLabel('Street and number'),
    zip: org.getByLabel('Postcode'),
    city: org.getByLabel('Town'),
    phone: org.getByLabel('Phone'),
  };
}

describe(
  'web page: the desk prefills the prescriber from its profile',
  { skip: browserSkipReason() },
  () => {
    const server = useTestServer({ ownPrescriptionUrl: true });
    const browser = useChromium();
    const secret = 'profil-secret-0123456789';
    let profiled: Actor;

    before(async () => {
      await server.runtime.tokens!.addClient({
        clientId: 'praxis-see',
        secret,
        role: 'prescriber',
        name: 'Dr. med. Sara Seeberger',
        sub: 'HIN|praxis-see',
        profile: {
          firstName: 'Sara',
          lastName: 'Seeberger',
          gln: GLN,
          zsr: 'K1234.56',
          practiceName: 'Praxis am See',
          street: 'Seestrasse 12',
          zip: '8002',
          city: 'Zürich',
          phone: '+41 44 123 45 67',
        },
      });
      profiled = {
        clientId: 'praxis-see',
        secret,
        sub: 'HIN|praxis-see',
        name: 'Dr. med. Sara Seeberger',
        token: await server.tokenFor('praxis-see', secret),
      };
    });

    test(
      'a prescriber with a profile finds name, GLN and practice filled, and the prescription carries them',
      { timeout: 90_000 },
      async () => {
        const { watched, page, desk } = await openSignedIn(browser(), server.url, profiled);
        const f = fields(desk);
        await f.person.getByText(NOTE).waitFor();
        assert.equal(await f.firstName.inputValue(), 'Sara');
        assert.equal(await f.lastName.inputValue(), 'Seeberger');
        assert.equal(await f.gln.inputValue(), GLN);
        assert.equal(await f.auth.inputValue(), GLN, 'the author GLN is not typed a second time');
        assert.equal(await f.zsr.inputValue(), 'K123456');
        assert.equal(await f.orgName.inputValue(), 'Praxis am See');
        assert.equal(await f.street.inputValue(), 'Seestrasse 12');
        assert.equal(await f.zip.inputValue(), '8002');
        assert.equal(await f.city.inputValue(), 'Zürich');
        assert.equal(await f.phone.inputValue(), '+41 44 123 45 67');
        await assertAccessible(page, 'the desk prefilled from the profile');

        // Still the person's to change: a different phone today.
        await f.phone.fill('+41 44 765 43 21');
        await fillPatient(desk);
        for (const [i, med] of SAMPLE_MEDICAMENTS.entries()) await fillMedicament(desk, i, med);
        await desk.getByRole('button', { name: 'Create prescription' }).click();
        const link = await createdLink(desk);
        const doc = decodeChmed(parseLink(link).chmed) as unknown as Record<string, never>;
        assert.equal(doc.Auth, GLN);
        assert.deepEqual(doc.HcPerson, {
          FName: 'Sara',
          LName: 'Seeberger',
          Gln: GLN,
          Zsr: 'K123456',
        });
        assert.deepEqual(doc.HcOrg, {
          Name: 'Praxis am See',
          Street: 'Seestrasse 12',
          Zip: '8002',
          City: 'Zürich',
          Phone: '+41 44 765 43 21',
        });
        const checked = await verify(server, link, profiled.token);
        assert.equal(checked.valid, true, JSON.stringify(checked));
        assert.equal(checked.revoked, false);
        await closeClean(watched);
      },
    );

    test(
      'a prescriber without a profile finds the fields empty, as before',
      { timeout: 60_000 },
      async () => {
        const watched = await watchedContext(browser(), server.url);
        const { page } = watched;
        const { desk } = screens(page);
        await page.goto(`${server.url}/app/#desk`);
        const answered = page.waitForResponse((r) => r.url().endsWith('/ePrescription/me'));
        await signIn(desk, server.doctor);
        assert.equal((await answered).status(), 200);
        const f = fields(desk);
        for (const field of [f.firstName, f.gln, f.auth, f.orgName, f.phone]) {
          assert.equal(await field.inputValue(), '');
        }
        assert.equal(await f.person.getByText(NOTE).count(), 0);
        await closeClean(watched);
      },
    );
  },
);
