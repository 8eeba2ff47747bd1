import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { baseUrl, connectBrowser, shown } from '../browser.ts'
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
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('is sent with every page and API answer, with helmet’s other protections, and allows no eval and no inline script', async () => {
    const { forms } = (await (await fetch(`${baseUrl()}/api/forms`)).json()) as { forms: { slug: string }[] }
    const paths = [
      '/',
      '/thank-you',
      '/view-agreement',
      '/military-analysis',
      '/confirm',
      '/no-such-page',
      '/favicon.svg',
      ...forms.flatMap(({ slug }) => [`/${slug}`, `/${slug}-success`, `/${slug}-admin`]),
      '/api/forms/brigit',
      '/api/staff/apps/brigit/submissions',
    ]
    expect(forms.length).toBeGreaterThanOrEqual(11)
    for (const path of paths) {
      const response = await fetch(`${baseUrl()}${path}`)
      const policy = response.headers.get('content-security-policy') ?? ''
      expect(policy, path).toContain("script-src 'self'")
      expect(policy, path).toContain("object-src 'none'")
      expect(policy, path).toContain("frame-ancestors 'none'")
      expect(policy, path).not.toContain('unsafe-eval')
      expect(policy, path).not.toContain('unsafe-inline')
      expect(response.headers.get('x-content-type-options'), path).toBe('nosniff')
      expect(response.headers.get('x-frame-options'), path).toBe('SAMEORIGIN')
      expect(response.headers.get('referrer-policy'), path).toBe('no-referrer')
      expect(response.headers.get('cross-origin-opener-policy'), path).toBe('same-origin')
      expect(response.headers.get('x-powered-by'), path).toBeNull()
      if (response.headers.get('content-type')?.startsWith('text/html')) {
        // the page itself carries no inline script for the policy to have to allow
        expect(await response.text(), path).not.toMatch(/<script(?![^>]*\ssrc=)[^>]*>/)
      }
    }
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
    await page.getByLabel('Email').fill(inject('adminEmail'))
    await page.getByLabel('Password', { exact: true }).fill(inject('adminPassword'))
    await page.getByRole('button', { name: 'Access Dashboard' }).click()
    await shown(page.getByRole('heading', { name: 'MoneyLion Admin Dashboard' }))
    await page.getByRole('button', { name: 'View Details' }).first().click()
    await shown(page.getByText('Selected Submission Details'))
    expect(await violations()).toEqual([])
  })
})
