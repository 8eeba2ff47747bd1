import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, shown, staffSessionCookies } from '../browser.ts'
import { tabTo } from '../keyboard.ts'

describe("an app's filing settings, read-only for its staff", () => {
  let browser: Browser

  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('opens from the dashboard with the keyboard and shows the respondent, the provider, the columns and the fees', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(await staffSessionCookies())
    const page = await context.newPage()
    await page.goto(`${baseUrl()}/earnin-admin`)
    await shown(page.getByRole('heading', { level: 1, name: 'Earnin Admin Dashboard' }))
    await keepScreenshot(page, 'dashboard-with-filing-link-1280')
    await tabTo(page, 'a[href="/earnin-admin/filing"]')
    await page.keyboard.press('Enter')
    await page.waitForURL(`${baseUrl()}/earnin-admin/filing`)
    await shown(page.getByRole('heading', { level: 1, name: 'Earnin Filing Settings' }))
    expect(await page.getByText('Activehours, Inc.').count()).toBe(1)
    expect(await shown(page.getByText(/^60 days after the notice/))).toContain('before a demand may be filed')
    const columns = page.getByRole('region', { name: 'Spreadsheet columns table' }).getByRole('row')
    expect(await columns.nth(1).innerText()).toMatch(
      /^Unique Claimant ID\s+The claimant's row ID in the batch\s+Required$/,
    )
    const fees = page.getByRole('region', { name: 'Fee table' }).getByRole('row')
    expect(await fees.nth(1).innerText()).toMatch(/^Once for the whole filing\s+\$3,125\.00\s+\$8,125\.00$/)
    expect(await fees.nth(2).innerText()).toMatch(/^Each case\s+\$0\.00\s+\$325\.00$/)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'filing-settings-1280')
    await page.setViewportSize({ width: 390, height: 844 })
    await keepScreenshot(page, 'filing-settings-390')
    // the way back is a link, as a paralegal expects
    await page.getByRole('link', { name: 'Back to the Earnin dashboard' }).click()
    await page.waitForURL(`${baseUrl()}/earnin-admin`)
    await context.close()
  })
})
