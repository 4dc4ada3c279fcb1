/**
 * The one place browser tests find and start Chromium (Debian's, driven by playwright-core) and
 * watch a page: every request (none may leave the server's origin) and every console error (none
 * is allowed, except the network log line of a refusal the test provokes on purpose).
 * Without Chromium the browser suites skip, except under `CI`, where they fail.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { findWebBuild } from '../../src/http/web.js';

/** Debian's Chromium (`apt-get install chromium`); `ERX_CHROMIUM` points elsewhere. */
export const CHROMIUM_PATH = process.env.ERX_CHROMIUM || '/usr/bin/chromium';

// What this machine's closed network needs: no background connections, no QUIC, no GPU.
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Where the tests save the screenshots shown in the README. */
export const SCREENSHOT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));

/**
 * Why the browser suites cannot run here, or `false` when they can. Under `CI` a missing
 * Chromium throws instead: CI must never pass by skipping them. A missing web build always
 * throws: `npm install` builds it, so its absence is a broken checkout, not a missing tool.
 */
export function browserSkipReason(): string | false {
  if (findWebBuild() === undefined) {
    throw new Error('the web page is not built: run `npm run build` first');
  }
  if (existsSync(CHROMIUM_PATH)) return false;
  const reason = `Chromium not found at ${CHROMIUM_PATH} (apt-get install chromium)`;
  if (process.env.CI) throw new Error(`${reason}; the browser tests are required in CI`);
  console.log(`# skipping browser tests: ${reason}`);
  return reason;
}

/** Starts headless Chromium with a fresh profile (Playwright makes a new user-data-dir). */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...CHROMIUM_ARGS, ...extraArgs],
  });
}

/**
 * Chromium for the calling suite: launched before its first test, closed after its last. The
 * answer gives the running browser; called outside the suite's tests and hooks it throws.
 */
export function useChromium(extraArgs: readonly string[] = []): () => Browser {
  let browser: Browser | undefined;
  before(async () => {
    browser = await launchChromium(extraArgs);
  });
  after(async () => {
    await browser?.close();
  });
  return () => {
    if (browser === undefined) throw new Error('Chromium is used outside the suite');
    return browser;
  };
}

export interface WatchedContext {
  context: BrowserContext;
  page: Page;
  /** Every URL any page of the context requested. */
  requests: string[];
  /** Console errors and uncaught exceptions, as `text @ url`. */
  errors: string[];
  /**
   * Allows the browser's own log line for one refusal the test provokes (Chromium logs
   * "Failed to load resource: … status of 403" for a fetch answered 403).
   */
  expectRefusal(status: number): void;
  /** Fails unless every request stayed on `origin` and no unexpected console error occurred. */
  assertClean(): void;
}

const REFUSAL = /^Failed to load resource: the server responded with a status of (\d{3})/;

/** A new context (English unless `locale` says otherwise, Zurich time, 1280×900), watched. */
export async function watchedContext(
  browser: Browser,
  origin: string,
  locale = 'en-GB',
): Promise<WatchedContext> {
  const context = await browser.newContext({
    locale,
    timezoneId: 'Europe/Zurich',
    viewport: { width: 1280, height: 900 },
    acceptDownloads: true,
  });
  const requests: string[] = [];
  const errors: string[] = [];
  const expected: number[] = [];
  context.on('request', (request) => requests.push(request.url()));
  const watch = (page: Page): void => {
    page.on('console', (message) => {
      if (message.type() !== 'error') return;
      const refused = REFUSAL.exec(message.text());
      const at = expected.indexOf(Number(refused?.[1]));
      if (refused && at >= 0 && message.location().url.startsWith(origin)) {
        expected.splice(at, 1);
        return;
      }
      errors.push(`${message.text()} @ ${message.location().url}`);
    });
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  };
  context.on('page', watch);
  const page = await context.newPage();
  return {
    context,
    page,
    requests,
    errors,
    expectRefusal: (status) => expected.push(status),
    assertClean: () => {
      const foreign = requests.filter((url) => {
        if (url.startsWith('data:') || url.startsWith('blob:')) return false;
        return new URL(url).origin !== origin;
      });
      if (foreign.length > 0) throw new Error(`requests to another origin: ${foreign.join(', ')}`);
      if (errors.length > 0) throw new Error(`console errors:\n${errors.join('\n')}`);
    },
  };
}

/** Saves a screenshot of `page` (whole page unless `fullPage` is false) as `docs/screenshots/<name>.png`. */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage });
}
