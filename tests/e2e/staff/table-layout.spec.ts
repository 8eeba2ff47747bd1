import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, shown, staffSessionCookies } from '../browser.ts'
import { fileClaim } from '../seed.ts'

async function openDashboard(browser: Browser, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: 900 } })
  await context.addCookies(await staffSessionCookies())
  const page = await context.newPage()
  await page.goto(`${baseUrl()}/brigit-admin`)
  await shown(page.getByRole('row').nth(1))
  return page
}

function tableRegion(page: Page) {
  return page.getByRole('region', { name: 'All Submissions table' })
}

describe('the staff table on a laptop and on a phone', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
    // a long name and a long address, as real ones can be: the newest claim, so the first row
    await fileClaim('brigit', {
      firstName: 'Maximiliana Esperanza',
      lastName: 'Villalobos-Hutchinson',
      phoneDigits: '7025550143',
      email: 'maximiliana.longaddress-for-layout@example-mail-provider.com',
    })
  })
  afterAll(async () => {
    await browser.close()
  })

  it('fits 1280 px: nothing to scroll sideways, and the first row’s View Screenshot wholly in view', async () => {
    const page = await openDashboard(browser, 1280)
    const { scrollWidth, clientWidth } = await tableRegion(page).evaluate((el) => ({
      scrollWidth: el.scrollWidth,
      clientWidth: el.clientWidth,
    }))
    expect(scrollWidth).toBeLessThanOrEqual(clientWidth)
    const link = page.getByRole('row').nth(1).getByRole('button', { name: 'View Screenshot' })
    await link.scrollIntoViewIfNeeded()
    const box = (await link.boundingBox())!
    const viewport = page.viewportSize()!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width)
    expect(box.y).toBeGreaterThanOrEqual(0)
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height)
  })

  it('shows every heading and cell whole at 1280 px, none cut off', async () => {
    const page = await openDashboard(browser, 1280)
    const cutOff = await tableRegion(page)
      .locator('th, td')
      .evaluateAll((cells) =>
        cells.filter((cell) => cell.scrollWidth > cell.clientWidth).map((cell) => cell.textContent),
      )
    expect(cutOff).toEqual([])
  })

  it('sorts the list oldest first from the Date heading with the keyboard, and back', async () => {
    const page = await openDashboard(browser, 1280)
    const ids = () =>
      page
        .locator('tbody tr')
        .evaluateAll((rows) => rows.map((row) => Number(row.getAttribute('data-claim-id'))))
    const newest = await ids()
    const date = page.getByRole('columnheader', { name: /^Date/ })
    expect(await date.getAttribute('aria-sort')).toBe('descending')
    await date.getByRole('button').focus()
    await page.keyboard.press('Enter')
    await expect.poll(() => date.getAttribute('aria-sort')).toBe('ascending')
    await expect.poll(async () => (await ids())[0]).toBe(Math.min(...newest, ...(await ids())))
    const oldest = await ids()
    expect(oldest).toEqual([...oldest].sort((a, b) => a - b))
    await page.keyboard.press('Enter')
    await expect.poll(ids).toEqual(newest)
  })

  it('keeps the name column in view, over the scrolled cells, on a phone', async () => {
    const page = await openDashboard(browser, 390)
    const region = tableRegion(page)
    const nameCell = page.getByRole('row').nth(1).locator('td.lead-cell')
    expect(await nameCell.innerText()).toBe('Maximiliana Esperanza Villalobos-Hutchinson')
    await nameCell.scrollIntoViewIfNeeded()
    const before = (await nameCell.boundingBox())!
    await region.evaluate((el) => (el.scrollLeft = el.scrollWidth))
    expect(await region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)
    const after = (await nameCell.boundingBox())!
    // it sticks at the table's left edge, over the claim's id scrolled away beneath it
    const edge = (await region.boundingBox())!.x
    expect(after.x).toBeLessThanOrEqual(before.x)
    expect(after.x).toBeGreaterThanOrEqual(edge)
    expect(after.x).toBeLessThanOrEqual(edge + 2)
    expect(after.x + after.width).toBeLessThanOrEqual(390)
    // the name is what shows there: the cells scrolled beneath it are hidden behind its background
    const { isOnTop, background } = await nameCell.evaluate((cell) => {
      const box = cell.getBoundingClientRect()
      const atPoint = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)
      return { isOnTop: cell.contains(atPoint), background: getComputedStyle(cell).backgroundColor }
    })
    expect(isOnTop).toBe(true)
    expect(background).not.toBe('rgba(0, 0, 0, 0)')
  })

  it('lets a keyboard user scroll the table sideways on a phone', async () => {
    const page = await openDashboard(browser, 390)
    const region = tableRegion(page)
    await region.focus()
    expect(await region.evaluate((el) => el === document.activeElement)).toBe(true)
    await page.keyboard.press('ArrowRight')
    // the browser may glide there rather than jump
    await expect.poll(() => region.evaluate((el) => el.scrollLeft)).toBeGreaterThan(0)
  })
})
