import axe from 'axe-core'
import type { Page } from 'playwright-core'

const WCAG_21_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

/**
 * What axe-core finds against WCAG 2.1 AA on the page as it is now: one line per rule, with where.
 *
 * axe runs in the page itself, put there once per document. @axe-core/playwright opens a blank page for
 * each scan to gather the results of every frame, which costs several times the rules' own work. Our
 * pages have no frames; a page with one is refused here rather than half scanned.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  if (page.frames().length > 1) throw new Error(`${page.url()} has frames, which this scan does not reach`)
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axe.source)
  return page.evaluate(async (tags) => {
    const results = await (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: 'tag', values: tags },
      // only the violations are read: axe then skips describing every passing node
      resultTypes: ['violations'],
    })
    return results.violations.map(
      (violation) =>
        `${violation.id} (${violation.impact ?? 'unknown'}): ${violation.nodes
          .map((node) => node.target.join(' '))
          .join(', ')}`,
    )
  }, WCAG_21_AA)
}
