import type { Browser, Response } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, openPhonePage, shown } from '../browser.ts'
import { fileClaim } from '../seed.ts'

describe('staff data without logging in', () => {
  let browser: Browser
  let claimId: number

  beforeAll(async () => {
    browser = await connectBrowser()
    claimId = await fileClaim('brigit', { email: 'nosy.neighbour@example.com', phoneDigits: '6025550201' })
  })
  afterAll(async () => {
    await browser.close()
  })

  it('answers 401 to every staff call made from the page, and the dashboard shows only the gate', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/brigit-admin`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Brigit Admin Access')
    await shown(page.getByLabel('Password', { exact: true }))

    const statuses = await page.evaluate(async (id) => {
      const urls = [
        '/api/staff/apps/brigit/submissions',
        '/api/staff/apps/brigit/stats',
        '/api/staff/apps/brigit/export.csv',
        `/api/staff/claims/${id}/screenshot`,
        '/api/staff/intake-submissions',
        '/api/staff/intake-submissions/export.csv',
        '/api/staff/session',
      ]
      return Promise.all(urls.map(async (url) => [url, (await fetch(url)).status] as const))
    }, claimId)
    for (const [url, status] of statuses) expect({ url, status }).toEqual({ url, status: 401 })

    expect(await page.getByRole('table').count()).toBe(0)
    expect(await page.getByText('nosy.neighbour@example.com').count()).toBe(0)
    expect(await page.getByRole('heading', { name: 'Brigit Admin Dashboard' }).count()).toBe(0)
    expect(pageErrors).toEqual([])
  })

  it('gates Klover like every other app', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/klover-admin`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Klover Admin Access')
  })

  it('shows the gate on the main page whatever key is in the address, and sends the key nowhere', async () => {
    const { page } = await openPhonePage(browser)
    const requested: string[] = []
    page.on('request', (request) => requested.push(request.url()))
    await page.goto(`${baseUrl()}/?key=guess-the-secret`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Admin Access')
    await shown(page.getByLabel('Password', { exact: true }))
    expect(await page.getByRole('heading', { name: 'All Submissions' }).count()).toBe(0)
    expect(requested.slice(1).filter((url) => url.includes('guess-the-secret'))).toEqual([])
  })

  it('never sends the staff screens to a claimant', async () => {
    const { page } = await openPhonePage(browser)
    const scripts: Promise<string>[] = []
    const collect = (response: Response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.text())
    }
    page.on('response', collect)
    await page.goto(`${baseUrl()}/brigit`)
    await shown(page.getByRole('heading', { level: 1 }))
    // every script the page loads (lazy chunks too), then no more: one read after the page closes would fail
    await page.waitForLoadState('networkidle')
    page.off('response', collect)
    const code = await Promise.all(scripts)
    expect(code.length).toBeGreaterThan(0)
    for (const text of code) expect(text).not.toContain('Access Dashboard')
  })
})
