import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** One axe-core finding: the rule, how bad, what it asks, and the elements at fault. */
export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/** axe-core's rules run in the page (the dev dependency axe-core: Deque's engine, as browser extensions run it). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the debugging protocol: the app's Content-Security-Policy refuses an injected script tag.
  await page.evaluate(readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: { id: string; impact: string; help: string; nodes: { target: string[] }[] }[] }> } }).axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map((n) => n.target.join(' ')) }));
  });
}
