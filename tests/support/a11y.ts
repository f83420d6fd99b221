import { createRequire } from 'node:module';
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import type { AxeResults, Result } from 'axe-core';

// axe-core injected as a script (the @axe-core/playwright wrapper asks for Node 22).
const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** Runs axe on the page as it is now; returns the serious and critical violations, described for a failure message. */
export async function seriousA11yViolations(page: Page): Promise<string[]> {
  // Evaluated through the DevTools protocol, not added as an inline <script>: the store's CSP refuses those.
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<AxeResults> } }).axe;
    return axe.run(document);
  });
  return results.violations
    .filter((violation: Result) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation: Result) =>
        `${violation.id} (${violation.impact}): ${violation.help} at ${violation.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
}
