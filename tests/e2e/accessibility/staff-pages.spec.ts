import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, shown, staffSessionCookies } from '../browser.ts'
import { fillClaim, submitButton } from '../step2/fill-claim.ts'
import { axeViolations } from './axe.ts'

/**
 * Every staff page checked by axe-core against WCAG 2.1 AA, reached from a page in each language:
 * staff pages are English whatever the claimant language last chosen in that browser was. The
 * refused-password state of the gate is checked in dashboard.spec.ts, with its login attempt.
 */
for (const lang of ['en', 'es'] as const) {
  describe(`staff pages, opened after ${lang === 'en' ? 'English' : 'Spanish'} (axe, WCAG 2.1 AA)`, () => {
    let browser: Browser
    beforeAll(async () => {
      browser = await connectBrowser()
      // one claim, so the dashboard has a row and details to open
      const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage()
      await page.goto(`${baseUrl()}/brigit`)
      await fillClaim(page, { phoneDigits: lang === 'en' ? '3055550170' : '3055550171', lastName: 'Axe' })
      await submitButton(page, 'Brigit').click()
      await page.waitForURL('**/brigit-success')
    })
    afterAll(async () => {
      await browser.close()
    })

    async function open(path: string, { signedIn }: { signedIn: boolean }): Promise<Page> {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
      if (signedIn) await context.addCookies(await staffSessionCookies())
      const page = await context.newPage()
      await page.goto(`${baseUrl()}/?lang=${lang}`)
      await page.goto(`${baseUrl()}${path}`)
      return page
    }

    it('/brigit-admin: the gate, the dashboard and a claim’s details', async () => {
      const gate = await open('/brigit-admin', { signedIn: false })
      await shown(gate.getByLabel('Password', { exact: true }))
      expect(await gate.evaluate(() => document.documentElement.lang)).toBe('en')
      expect(await axeViolations(gate)).toEqual([])

      const page = await open('/brigit-admin', { signedIn: true })
      await shown(page.getByRole('heading', { level: 1, name: 'Brigit Admin Dashboard' }))
      await shown(page.getByRole('row').nth(1))
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en')
      expect(await axeViolations(page)).toEqual([])
      await page.getByRole('button', { name: 'View Details' }).first().click()
      await shown(page.getByRole('heading', { name: /Submission Details/i }))
      expect(await axeViolations(page)).toEqual([])
    })

    it('/military-analysis and the main page’s admin view', async () => {
      const page = await open('/military-analysis', { signedIn: true })
      await shown(page.getByRole('heading', { level: 1 }))
      await page
        .getByText(/active/i)
        .first()
        .waitFor()
      expect(await axeViolations(page)).toEqual([])

      const admin = await open('/?key=staff', { signedIn: true })
      await shown(admin.getByRole('heading', { level: 1, name: 'All Submissions' }))
      expect(await admin.evaluate(() => document.documentElement.lang)).toBe('en')
      expect(await axeViolations(admin)).toEqual([])
    })
  })
}
