import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { tabTo } from '../keyboard.ts'

describe('the staff home', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('shows each dashboard with its claims to review, deficient and ready to file, and opens one by keyboard', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(await staffSessionCookies())
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${baseUrl()}/staff`)
    const table = page.getByRole('region', { name: 'Dashboard counts' })
    const earnin = table
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: 'Earnin', exact: true }) })
    await shown(earnin)
    const [counted] = queryDb<{ toReview: number; deficient: number; ready: number }>(
      `SELECT sum(CASE WHEN review_status IN ('received', 'in_review', 'cured') THEN 1 ELSE 0 END) AS toReview,
              sum(CASE WHEN review_status = 'deficient' THEN 1 ELSE 0 END) AS deficient,
              sum(CASE WHEN review_status = 'approved' THEN 1 ELSE 0 END) AS ready
       FROM claims WHERE app = 'earnin'`,
    )
    expect((await earnin.innerText()).split('\t').map((cell) => cell.trim())).toEqual([
      'Earnin',
      (counted?.toReview ?? 0).toLocaleString('en-US'),
      (counted?.deficient ?? 0).toLocaleString('en-US'),
      (counted?.ready ?? 0).toLocaleString('en-US'),
    ])
    expect(await table.getByRole('columnheader').allInnerTexts()).toEqual([
      'Dashboard',
      'To review',
      'Deficient',
      'Ready to file',
    ])
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'staff-home-1280')

    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'staff-home-390')

    await tabTo(page, 'a[href="/earnin-admin"]')
    await page.keyboard.press('Enter')
    await shown(page.getByRole('heading', { level: 1, name: 'Earnin Admin Dashboard' }))
    expect(pageErrors).toEqual([])
    await context.close()
  })
})
