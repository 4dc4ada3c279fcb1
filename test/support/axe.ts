/**
 * axe-core in the browser tests: its source (from npm) evaluated in a page, run on the whole
 * document, and its violations turned into one readable failure.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** One violation as the failure lists it: the rule, its impact and the elements it found. */
export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's minified source; read per call (the tests run it a few dozen times). */
function axeSource(): string {
  const require = createRequire(import.meta.url);
  return readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
}

/**
 * Runs axe-core on the document of `page` (injected first when the page does not have it yet)
 * and answers its violations under axe's default rules (WCAG 2.x A and AA and its best practices).
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  const loaded = await page.evaluate(() => 'axe' in globalThis);
  // Evaluated through the DevTools protocol, not as a <script>: the page's CSP allows no inline script.
  if (!loaded) await page.evaluate(`${axeSource()}\n;undefined`);
  return page.evaluate(async () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const axe = (globalThis as any).axe;
    const result = await axe.run({ resultTypes: ['violations'] });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact ?? null,
      help: v.help,
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      targets: v.nodes.map((n: any) => n.target.join(' ')),
    }));
  });
}

/** The violations as lines: `rule (impact): help` and each target selector below it. */
export function formatViolations(violations: readonly AxeViolation[]): string {
  return violations
    .map((v) => `${v.id} (${v.impact ?? 'n/a'}): ${v.help}\n    ${v.targets.join('\n    ')}`)
    .join('\n');
}

/** Fails with the list of violations unless axe-core finds none on `page`; `where` names the state. */
export async function assertAccessible(page: Page, where: string): Promise<void> {
  const violations = await axeViolations(page);
  if (violations.length > 0) {
    throw new Error(`axe-core: ${where}:\n${formatViolations(violations)}`);
  }
}
