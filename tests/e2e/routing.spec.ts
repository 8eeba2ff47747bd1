import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, launchBrowser, openPhonePage, shown } from './browser.ts'

describe('addresses that are not pages, and app addresses in other letter case', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('answers an unknown address with 404 and "Page not found", asking the API nothing', async () => {
    for (const address of ['/no-such-page', '/nosuchapp', '/nosuchapp-success']) {
      const { page } = await openPhonePage(browser)
      const apiCalls: string[] = []
      page.on('request', (req) => {
        if (new URL(req.url()).pathname.startsWith('/api/forms')) apiCalls.push(req.url())
      })
      const response = await page.goto(`${baseUrl()}${address}`)
      expect(response?.status()).toBe(404)
      expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Page not found')
      await page.waitForLoadState('networkidle')
      expect(apiCalls).toEqual([])
      // the way home still works
      await page.getByRole('link', { name: 'Go back to the home page' }).click()
      await page.locator('#root_firstName').waitFor()
    }
  })

  it('takes /Brigit to /brigit with its query, and shows the Brigit form', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/Brigit?lang=es`)
    expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe('/brigit?lang=es')
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe(
      'Reclamo por adelanto de efectivo de Brigit (Paso 2)',
    )
  })
})
