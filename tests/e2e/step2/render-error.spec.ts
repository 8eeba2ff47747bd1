import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, it } from 'vitest'
import { baseUrl, connectBrowser, openPhonePage, shown } from '../browser.ts'

describe('a page that fails to render', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('shows "Unexpected Application Error!" with a way back to the home page', async () => {
    const { page } = await openPhonePage(browser)
    // a config that breaks the renderer (no status, no title) stands in for any bug in a route
    await page.route('**/api/forms/brigit', (route) =>
      route.fulfill({ status: 200, contentType: 'application/json', body: '{"slug":"brigit"}' }),
    )
    await page.goto(`${baseUrl()}/brigit`)
    await shown(page.getByRole('heading', { name: 'Unexpected Application Error!' }))
    await page.getByRole('link', { name: 'Go back to the home page' }).click()
    await page.waitForURL(`${baseUrl()}/`)
    await shown(page.getByRole('link', { name: 'View My Agreement' }))
  })
})
