/**
 * Steps the browser tests share: signing in on a screen and filling the prescriber's form the
 * way a person does, through labels and roles.
 */
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import type { Browser, Locator, Page } from 'playwright-core';
import { decodeChmed } from '../../src/chmed16a/index.js';
import { parseLink } from '../../src/link/index.js';
import { watchedContext } from '../support/browser.js';
import type { WatchedContext } from '../support/browser.js';
import type { Actor } from '../support/server.js';

/** A decoded CHMED16A document, read field by field as the tests assert on it. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Doc = Record<string, any>;

/**
 * Asserts that what `read` returns comes to equal `expected`: the page renders after the event
 * that changes it, so a value read at once can still be the old one. Reads again every 50 ms for
 * up to 5 s, then compares the last value read.
 */
export async function settlesTo<T>(
  read: () => Promise<T>,
  expected: T,
  message?: string,
): Promise<void> {
  const until = performance.now() + 5_000;
  let value = await read();
  while (!isDeepStrictEqual(value, expected) && performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    value = await read();
  }
  assert.deepEqual(value, expected, message);
}

/** The id of the element that has focus (`''` for one without), or null when nothing has. */
export async function focusedId(page: Page): Promise<string | null> {
  const ids = await page.locator(':focus').evaluateAll((els) => els.map((el) => el.id));
  return ids[0] ?? null;
}

/** The text of the element that has focus, or null when nothing has. */
export async function focusedText(page: Page): Promise<string | null> {
  const texts = await page.locator(':focus').evaluateAll((els) => els.map((el) => el.textContent));
  return texts[0] ?? null;
}

/** The ids of the desk's list of issued prescriptions, in the order shown. */
export function issuedIds(desk: Locator): Promise<string[]> {
  return desk
    .getByRole('region', { name: 'Issued prescriptions' })
    .locator('li[data-prescription-id]')
    .evaluateAll((items) => items.map((li) => li.getAttribute('data-prescription-id') ?? ''));
}

/** The two staff screens of `/app/`. */
export function screens(page: Page): { counter: Locator; desk: Locator } {
  return { counter: page.locator('#screen-counter'), desk: page.locator('#screen-desk') };
}

/** A watched page of `/app/` with its two screens. */
export interface SignedIn {
  watched: WatchedContext;
  page: Page;
  desk: Locator;
  counter: Locator;
}

/**
 * Opens a new watched context on `screen` of `/app/` at `origin` and signs `actor` in there, the
 * way every staff test starts.
 */
export async function openSignedIn(
  browser: Browser,
  origin: string,
  actor: Actor,
  screen: 'desk' | 'counter' = 'desk',
): Promise<SignedIn> {
  const watched = await watchedContext(browser, origin);
  const { page } = watched;
  const both = screens(page);
  await page.goto(`${origin}/app/#${screen}`);
  await signIn(both[screen], actor);
  return { watched, page, ...both };
}

/** Fails on a foreign request or an unexpected console error, then closes the context. */
export async function closeClean(watched: WatchedContext): Promise<void> {
  watched.assertClean();
  await watched.context.close();
}

/** Waits for the desk to show the created prescription and answers its link. */
export async function createdLink(desk: Locator): Promise<string> {
  await desk.locator('section.created').waitFor();
  return desk.locator('#created-link').inputValue();
}

/** Waits for the created prescription and answers the document its link carries. */
export async function createdDocument(desk: Locator): Promise<Doc> {
  return decodeChmed(parseLink(await createdLink(desk)).chmed);
}

/** Signs `actor` in on `screen` with its client credentials. */
export async function signIn(screen: Locator, actor: Actor): Promise<void> {
  await screen.getByLabel('Client ID').fill(actor.clientId);
  await screen.getByLabel('Client secret').fill(actor.secret);
  await screen.getByRole('button', { name: 'Sign in' }).click();
  await screen.getByRole('button', { name: 'Sign out' }).waitFor();
}

export interface MedicamentInput {
  id: string;
  unit: string;
  doses: [string, string, string, string];
  until?: string;
  instructions?: string;
  packs: string;
  repeats: string;
  substitutionAllowed: boolean;
}

/** The sample prescription of `examples/prescription.json`, as typed into the form. */
export const SAMPLE_MEDICAMENTS: readonly MedicamentInput[] = [
  {
    id: '7680543201015',
    unit: 'Tablette',
    doses: ['1', '0', '1', '0'],
    // Always ahead: "take until" in the past asks for confirmation before issuing.
    until: `${new Date().getFullYear() + 1}-12-31`,
    instructions: 'Nach dem Essen einnehmen',
    packs: '1',
    repeats: '0',
    substitutionAllowed: true,
  },
  {
    id: '7680621130046',
    unit: 'Kapsel',
    doses: ['0', '0', '1', '0'],
    packs: '2',
    repeats: '3',
    substitutionAllowed: false,
  },
];

/** Fills the patient part; `zip` lets a test type an invalid postcode first. */
export async function fillPatient(desk: Locator, zip = '8001'): Promise<void> {
  const patient = desk.getByRole('group', { name: 'Patient' });
  await patient.getByLabel('First name').fill('Anna');
  await patient.getByLabel('Last name').fill('Muster');
  await patient.getByLabel('Date of birth').fill('1968-05-21');
  await patient.getByLabel('Street and number').fill('Bahnhofstrasse 3');
  await patient.getByLabel('Postcode').fill(zip);
  await patient.getByLabel('Town').fill('Zürich');
  await patient.getByLabel('Gender').selectOption({ label: 'female' });
}

/**
 * Fills the prescriber, the author GLN and the practice; `authorGln` false for a desk composing
 * CHMED23A, which asks for no author GLN.
 */
export async function fillPrescriber(desk: Locator, authorGln = true): Promise<void> {
  const person = desk.getByRole('group', { name: 'Prescribing person' });
  await person.getByLabel('First name').fill('Lukas');
  await person.getByLabel('Last name').fill('Beispiel');
  await person.getByRole('textbox', { name: 'GLN (13 digits)', exact: true }).fill('7601001234567');
  if (!authorGln) return fillPractice(desk);
  await person
    .getByRole('textbox', { name: 'Author GLN (13 digits)', exact: true })
    .fill('7601001234567');
  await fillPractice(desk);
}

/** Fills the practice. */
async function fillPractice(desk: Locator): Promise<void> {
  const org = desk.getByRole('group', { name: 'Practice or organisation' });
  await org.getByRole('textbox', { name: 'Name', exact: true }).fill('Praxis am See');
  await org.getByLabel('Street and number').fill('Seestrasse 12');
  await org.getByLabel('Postcode').fill('8002');
  await org.getByLabel('Town').fill('Zürich');
  await org.getByLabel('Phone').fill('+41 44 123 45 67');
}

/** Fills medicament `index` (adding its fieldset when needed). */
export async function fillMedicament(
  desk: Locator,
  index: number,
  med: MedicamentInput,
): Promise<void> {
  const name = `Medicament ${index + 1}`;
  const group = desk.getByRole('group', { name, exact: true });
  if ((await group.count()) === 0) {
    await desk.getByRole('button', { name: 'Add a medicament' }).click();
  }
  await group.getByLabel('Product ID').fill(med.id);
  await group.getByLabel('Unit (e.g. tablet)').fill(med.unit);
  const doses = group.getByRole('group', { name: 'Dose at each time of day' });
  for (const [slot, value] of [
    ['Morning', med.doses[0]],
    ['Noon', med.doses[1]],
    ['Evening', med.doses[2]],
    ['Night', med.doses[3]],
  ] as const) {
    await doses.getByLabel(slot, { exact: true }).fill(value);
  }
  if (med.until !== undefined) await group.getByLabel('Take until').fill(med.until);
  if (med.instructions !== undefined) {
    await group.getByLabel('Instructions').fill(med.instructions);
  }
  await group.getByLabel('Packs').fill(med.packs);
  await group.getByLabel('Repeats (0 to 24)').fill(med.repeats);
  await group.getByLabel('Substitution allowed').setChecked(med.substitutionAllowed);
}

/** Fills the whole form with the sample prescription. */
export async function fillSample(desk: Locator, zip = '8001'): Promise<void> {
  await fillPatient(desk, zip);
  await fillPrescriber(desk);
  for (const [i, med] of SAMPLE_MEDICAMENTS.entries()) await fillMedicament(desk, i, med);
  await desk.getByLabel('Remarks').fill('Patientin über Einnahme und Nebenwirkungen informiert.');
}
