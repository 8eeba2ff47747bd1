import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { baseUrl, launchBrowser, shown } from '../browser.ts'
import { fillClaim, submitButton } from '../step2/fill-claim.ts'

/** Records every Content-Security-Policy violation the page reports, from before its first script. */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.violatedDirective} ${event.blockedURI}`),
    )
  })
  return () => page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)
}

describe('the strict Content-Security-Policy', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('is sent with every page and allows no eval and no inline script', async () => {
    const response = await fetch(`${baseUrl()}/brigit`)
    const policy = response.headers.get('content-security-policy') ?? ''
    expect(policy).toContain("script-src 'self'")
    expect(policy).not.toContain('unsafe-eval')
    expect(policy).not.toContain('unsafe-inline')
    expect(response.headers.get('x-content-type-options')).toBe('nosniff')
  })

  it('reports no violation while a claimant files a claim and staff use the dashboard', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    const violations = await watchViolations(page)
    await page.goto(`${baseUrl()}/moneylion`)
    await fillClaim(page, { phoneDigits: '5415550123' })
    await submitButton(page, 'MoneyLion').click()
    await page.waitForURL('**/moneylion-success')
    await shown(page.getByText('MoneyLion Information Submitted Successfully'))
    expect(await violations()).toEqual([])

    await page.goto(`${baseUrl()}/moneylion-admin`)
    await page.getByLabel('Admin Password').fill(inject('adminPassword'))
    await page.getByRole('button', { name: 'Access Dashboard' }).click()
    await shown(page.getByRole('heading', { name: 'MoneyLion Admin Dashboard' }))
    await page.getByRole('button', { name: 'View Details' }).first().click()
    await shown(page.getByText('Selected Submission Details'))
    expect(await violations()).toEqual([])
  })
})
