import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, shown, staffSessionCookies } from '../browser.ts'
import { fileClaim } from '../seed.ts'
import { axeViolations } from './axe.ts'

/**
 * Every staff page checked by axe-core against WCAG 2.1 AA, and reached from a page in each language:
 * staff pages are English whatever the claimant language last chosen in that browser was. The
 * refused-password state of the gate is checked in dashboard.spec.ts, with its login attempt.
 */
for (const lang of ['en', 'es'] as const) {
  describe(`staff pages, opened after ${lang === 'en' ? 'English' : 'Spanish'} (axe, WCAG 2.1 AA)`, () => {
    let browser: Browser
    beforeAll(async () => {
      browser = await connectBrowser()
      // one claim, so the dashboard has a row and details to open
      await fileClaim('brigit', { phoneDigits: lang === 'en' ? '3055550170' : '3055550171', lastName: 'Axe' })
    })
    afterAll(async () => {
      await browser.close()
    })

    /**
     * axe-core's check, in the English block: after Spanish the pages are the same English pages (the
     * lang checks here show it), so a second axe pass over them would find what the first found.
     */
    async function expectAccessible(page: Page): Promise<void> {
      if (lang === 'en') expect(await axeViolations(page)).toEqual([])
    }

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
      await expectAccessible(gate)

      const page = await open('/brigit-admin', { signedIn: true })
      await shown(page.getByRole('heading', { level: 1, name: 'Brigit Admin Dashboard' }))
      await shown(page.getByRole('row').nth(1))
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en')
      await expectAccessible(page)
      await page.getByRole('button', { name: 'View Details' }).first().click()
      await shown(page.getByRole('heading', { name: /Submission Details/i }))
      await expectAccessible(page)
    })

    it('/military-analysis and the main page’s admin view', async () => {
      const page = await open('/military-analysis', { signedIn: true })
      await shown(page.getByRole('heading', { level: 1 }))
      await page
        .getByText(/active/i)
        .first()
        .waitFor()
      expect(await page.evaluate(() => document.documentElement.lang)).toBe('en')
      await expectAccessible(page)

      const admin = await open('/?key=staff', { signedIn: true })
      await shown(admin.getByRole('heading', { level: 1, name: 'All Submissions' }))
      expect(await admin.evaluate(() => document.documentElement.lang)).toBe('en')
      await expectAccessible(admin)
    })
  })
}
