import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, openPhonePage, shown } from './browser.ts'

/** Every request the page makes to the API from now on, as path and query. */
function recordApiRequests(page: Page): string[] {
  const requests: string[] = []
  page.on('request', (request) => {
    const url = new URL(request.url())
    if (url.pathname.startsWith('/api/')) requests.push(url.pathname + url.search)
  })
  return requests
}

/** Moves inside the site the way its own links do (history, no page load). */
async function moveInsideSite(page: Page, address: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to)
    window.dispatchEvent(new PopStateEvent('popstate'))
  }, address)
}

function pathAndQuery(page: Page): string {
  const url = new URL(page.url())
  return url.pathname + url.search
}

describe('addresses that are not pages, and app addresses in other letter case', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it.each([
    '/no-such-page',
    '/foo/bar',
    '/nosuchapp',
    '/nosuchapp-success',
    '/nosuchapp-admin',
    '/nosuchapp-admin/claims/1',
    '/brigit-admin/claims/one',
  ])('answers %s with 404 and "Page not found", asking the API nothing', async (address) => {
    const { page, pageErrors } = await openPhonePage(browser)
    const apiRequests = recordApiRequests(page)
    const response = await page.goto(`${baseUrl()}${address}`)
    expect(response?.status()).toBe(404)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Page not found')
    expect(await page.title()).toBe('Page not found')
    await page.waitForLoadState('networkidle')
    expect(apiRequests).toEqual([])
    expect(pageErrors).toEqual([])
    await page.close()
  })

  it('leads from the not-found page back to the home page', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/no-such-page`)
    await page.getByRole('link', { name: 'Go back to the home page' }).click()
    await page.locator('#root_firstName').waitFor()
    expect(pathAndQuery(page)).toBe('/')
    await page.close()
  })

  it('takes /Brigit to /brigit and shows the Brigit form', async () => {
    const { page } = await openPhonePage(browser)
    const response = await page.goto(`${baseUrl()}/Brigit`)
    expect(response?.status()).toBe(200)
    expect(pathAndQuery(page)).toBe('/brigit')
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Brigit Cash Advance Claim (Step 2)')
    await page.close()
  })

  it('keeps the query when it redirects: /Brigit?lang=es is the Spanish /brigit', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/Brigit?lang=es`)
    expect(pathAndQuery(page)).toBe('/brigit?lang=es')
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe(
      'Reclamo por adelanto de efectivo de Brigit (Paso 2)',
    )
    await page.close()
  })

  it('takes /Brigit to /brigit inside the site too, without reloading the page', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/view-agreement`)
    await page.getByRole('heading', { level: 1 }).waitFor()
    const documentRequests: string[] = []
    page.on('request', (request) => {
      if (request.isNavigationRequest()) documentRequests.push(request.url())
    })
    await moveInsideSite(page, '/Brigit-Success')
    await page.waitForURL('**/brigit-success')
    await moveInsideSite(page, '/Brigit')
    await page.waitForURL('**/brigit')
    expect(await shown(page.getByRole('heading', { name: 'Brigit Cash Advance Claim (Step 2)' }))).toBe(
      'Brigit Cash Advance Claim (Step 2)',
    )
    expect(documentRequests).toEqual([])
    await page.close()
  })

  it('shows "Page not found" for an unknown app reached inside the site after one API request', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/view-agreement`)
    await page.getByRole('heading', { level: 1 }).waitFor()
    await page.waitForLoadState('networkidle')
    const apiRequests = recordApiRequests(page)
    await moveInsideSite(page, '/nosuchapp')
    // the page shows only once the config's 404 came back, after any request started beside it
    expect(await shown(page.getByRole('heading', { name: 'Page not found' }))).toBe('Page not found')
    expect(apiRequests).toEqual(['/api/forms/nosuchapp'])
    await page.close()
  })
})
