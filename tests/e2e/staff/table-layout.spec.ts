import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, launchBrowser, shown, staffSessionCookies } from '../browser.ts'
import { fillClaim, submitButton } from '../step2/fill-claim.ts'

async function openDashboard(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  await context.addCookies(await staffSessionCookies())
  const page = await context.newPage()
  await page.goto(`${baseUrl()}/brigit-admin`)
  await shown(page.getByRole('row').nth(1))
  return page
}

describe('the staff table on a laptop and on a phone', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } })
    await page.goto(`${baseUrl()}/brigit`)
    // a long address, as real ones can be
    await fillClaim(page, {
      phoneDigits: '7025550143',
      email: 'maximiliana.longaddress-for-layout@example-mail-provider.com',
    })
    await submitButton(page, 'Brigit').click()
    await page.waitForURL('**/brigit-success')
  })
  afterAll(async () => {
    await browser.close()
  })

  it('fits 1280 px: nothing to scroll sideways, and every row’s View Screenshot in view', async () => {
    const page = await openDashboard(browser, 1280)
    const region = page.getByRole('region', { name: 'All Submissions table' })
    const { scrollWidth, clientWidth } = await region.evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }))
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth)
    const link = page.getByRole('link', { name: 'View Screenshot' }).first()
    const box = (await link.boundingBox())!
    expect(box.x + box.width).toBeLessThanOrEqual(1280)
  })

  it('keeps the name column in view on a phone while the row scrolls sideways', async () => {
    const page = await openDashboard(browser, 390)
    const region = page.getByRole('region', { name: 'All Submissions table' })
    const nameCell = page.getByRole('row').nth(1).getByRole('cell').first()
    const before = (await nameCell.boundingBox())!
    await region.evaluate((el) => (el.scrollLeft = 500))
    const after = (await nameCell.boundingBox())!
    expect(await region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)
    expect(after.x).toBeCloseTo(before.x, 0)
    expect(
      await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('td') !== null, {
        x: after.x + 5,
        y: after.y + after.height / 2,
      }),
    ).toBe(true)
  })
})
