import { AxeBuilder } from '@axe-core/playwright'
import type { Page } from 'playwright-core'

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

/** What axe-core finds against WCAG 2.1 AA on the page as it is now: one line per rule, with where. */
export async function axeViolations(page: Page): Promise<string[]> {
  // only the violations are read: axe then skips describing every passing node, most of a scan's time
  const results = await new AxeBuilder({ page })
    .withTags(WCAG_21_AA)
    .options({ resultTypes: ['violations'] })
    .analyze()
  return results.violations.map(
    (violation) =>
      `${violation.id} (${violation.impact ?? 'unknown'}): ${violation.nodes
        .map((node) => node.target.join(' '))
        .join(', ')}`,
  )
}
