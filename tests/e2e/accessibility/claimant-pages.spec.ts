import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, shown } from '../browser.ts'
import { axeViolations } from './axe.ts'

/**
 * Every claimant page in both languages, with and without its messages showing, checked by axe-core
 * against WCAG 2.1 AA. Each language has a browser context of its own, so the language comes from the
 * pages' addresses alone.
 */
for (const lang of ['en', 'es'] as const) {
  describe(`claimant pages in ${lang === 'en' ? 'English' : 'Spanish'} (axe, WCAG 2.1 AA)`, () => {
    let browser: Browser
    beforeAll(async () => {
      browser = await connectBrowser()
    })
    afterAll(async () => {
      await browser.close()
    })

    // one page for the language's tests, each opening its address afresh: a new page costs Chromium a
    // renderer and a compile of the client's code, a navigation neither (axe needs a page of a context)
    let shared: Page | undefined

    async function open(path: string, ready: (page: Page) => Promise<unknown>): Promise<Page> {
      shared ??= await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage()
      const page = shared
      await page.goto(`${baseUrl()}${path}${path.includes('?') ? '&' : '?'}lang=${lang}`)
      await ready(page)
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang)
      return page
    }

    const heading = (page: Page) => shown(page.getByRole('heading', { level: 1 }))
    const submit = (page: Page) => page.locator('form button.submit[type="submit"]').first()
    /** Presses submit as a keyboard user does: it stays focusable while the form is incomplete. */
    const pressSubmit = async (page: Page) => {
      await submit(page).focus()
      await page.keyboard.press('Enter')
    }

    it('/ (the main form), untouched and after an empty submit', async () => {
      const page = await open('/', (page) => submit(page).waitFor())
      expect(await axeViolations(page)).toEqual([])
      await pressSubmit(page)
      await shown(page.locator('.field-error, .error-detail').first())
      expect(await axeViolations(page)).toEqual([])
    })

    it('/ with the agreement shown above the signature', async () => {
      const page = await open('/', (page) => submit(page).waitFor())
      await page.locator('canvas#root_signature').scrollIntoViewIfNeeded()
      await shown(page.getByTestId('agreement-text'))
      expect(await axeViolations(page)).toEqual([])
    })

    it('/brigit (a Step 2 form), untouched and after an empty submit', async () => {
      const page = await open('/brigit', (page) => submit(page).waitFor())
      await page.getByTestId('agreement-text').waitFor()
      expect(await axeViolations(page)).toEqual([])
      // the first Tab shows the skip link; Enter on it takes the next Tab past the header into the form
      const skip = page.getByRole('link', { name: lang === 'en' ? 'Skip to content' : 'Saltar al contenido' })
      expect(await skip.boundingBox()).toMatchObject({ width: 1, height: 1 })
      const address = page.url()
      await page.keyboard.press('Tab')
      expect(await skip.evaluate((link) => link === document.activeElement)).toBe(true)
      expect((await skip.boundingBox())?.width).toBeGreaterThan(80)
      await page.keyboard.press('Enter')
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('main')
      await page.keyboard.press('Tab')
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('root_firstName')
      expect(page.url()).toBe(address)
      await pressSubmit(page)
      await shown(page.locator('.field-error, .error-detail').first())
      expect(await axeViolations(page)).toEqual([])
    })

    it('/klover (a closed app)', async () => {
      const page = await open('/klover', heading)
      expect(await axeViolations(page)).toEqual([])
    })

    it('/brigit-success and /thank-you', async () => {
      for (const path of ['/brigit-success', '/thank-you']) {
        const page = await open(path, heading)
        expect(await axeViolations(page)).toEqual([])
      }
    })

    it('/view-agreement, untouched, with its messages, and with the answer to a lookup', async () => {
      const page = await open('/view-agreement', heading)
      expect(await axeViolations(page)).toEqual([])
      await page.locator('#lookup-email').fill('not-an-email')
      await page.locator('#lookup-phone').fill('555')
      await page.locator('form button[type="submit"]').click()
      await shown(page.locator('.field-error').first())
      expect(await axeViolations(page)).toEqual([])
      await page.locator('#lookup-email').fill('nobody@example.com')
      await page.locator('#lookup-phone').fill('(555) 200-0000')
      await page.locator('form button[type="submit"]').click()
      await shown(page.locator('.notice-box'))
      expect(await axeViolations(page)).toEqual([])
    })

    it('an unknown address (the not-found page)', async () => {
      const page = await open('/no-such-page', heading)
      expect(await axeViolations(page)).toEqual([])
    })
  })
}
