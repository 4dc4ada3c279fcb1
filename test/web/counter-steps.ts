/**
 * Steps the counter's browser tests share: a prescription made through the API (faster than the
 * desk, which has its own tests), and the counter opened, signed in and given its link.
 */
import type { Locator, Page } from 'playwright-core';
import { createPrescription } from '../support/e2e.js';
import type { Created } from '../support/e2e.js';
import type { Actor, TestServer } from '../support/server.js';
import { screens, signIn } from './steps.js';
import type { Doc } from './steps.js';

/** Calls the service as `actor` and fails unless it answers 200. */
export async function act(
  server: TestServer,
  actor: Actor,
  path: string,
  body?: unknown,
): Promise<void> {
  const answer = await server.request('POST', path, {
    token: actor.token,
    ...(body === undefined ? {} : { body: JSON.stringify(body), contentType: 'application/json' }),
  });
  if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${answer.text}`);
}

/** The sample prescription (MED_A: 1 pack; MED_B: 2 packs × 4, no substitution). */
export function created(server: TestServer): Promise<Created> {
  return createPrescription(server);
}

/** Opens the counter of `page`, signs `actor` in and verifies `link`; answers the counter. */
export async function openAtCounter(
  page: Page,
  server: TestServer,
  actor: Actor,
  link: string,
): Promise<Locator> {
  const { counter } = screens(page);
  await page.goto(`${server.url}/app/#counter`);
  await signIn(counter, actor);
  await counter.getByLabel('Or paste the link').fill(link);
  await counter.getByRole('button', { name: 'Verify', exact: true }).click();
  // The result's heading (the headline state); focus moves there once verified.
  await counter.locator('#verify-title').waitFor();
  return counter;
}

/** The cells of the packages table, per medicament: [prescribed, dispensed, remaining]. */
export function packages(counter: Locator): Promise<string[][]> {
  return counter
    .locator('table.medicament-status tbody tr')
    .evaluateAll((rows) =>
      rows.map((row) => [...row.querySelectorAll('td')].map((td) => td.textContent ?? '')),
    );
}

export { withChangedContent, withChangedSignature } from '../support/forged-links.js';

/** The verify answer of `link` for `actor`, read whole. */
export async function verifiedAs(server: TestServer, actor: Actor, link: string): Promise<Doc> {
  const answer = await server.request('POST', '/ePrescription/verify', {
    token: actor.token,
    body: link,
    contentType: 'text/plain',
  });
  if (answer.status !== 200) throw new Error(`verify: ${answer.status} ${answer.text}`);
  return answer.json as Doc;
}
