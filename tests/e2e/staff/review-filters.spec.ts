import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { fileClaim } from '../seed.ts'

// dailypay: an app no other spec files claims in; a surname and phones no other spec uses
const APP = 'dailypay'
const IN_REVIEW = { email: 'ines.filterkey@example.com', phoneDigits: '6175550141', lastName: 'Filterkey' }
const RECEIVED = { email: 'rosa.filterkey@example.com', phoneDigits: '6175550142', lastName: 'Filterkey' }

describe('a reviewer filters the list by status with the keyboard and assigns a claim to themselves', () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  const ids = { inReview: 0, received: 0 }

  beforeAll(async () => {
    ids.inReview = await fileClaim(APP, IN_REVIEW)
    ids.received = await fileClaim(APP, RECEIVED)
    const cookies = await staffSessionCookies()
    const moved = await fetch(`${baseUrl()}/api/staff/claims/${ids.inReview}/moves`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: baseUrl(),
        Cookie: cookies.map(({ name, value }) => `${name}=${value}`).join('; '),
      },
      body: JSON.stringify({ to: 'in_review', version: 0 }),
    })
    if (moved.status !== 200) throw new Error(`the move answered ${moved.status}`)
    browser = await connectBrowser()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(cookies)
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
  })

  const table = () => page.getByRole('region', { name: 'All Submissions table' })
  const details = () => page.getByRole('region', { name: 'Selected Submission Details' })
  const rowsShown = async (count: number) => {
    await page.waitForFunction(
      (n) => document.querySelectorAll('.staff-table tbody tr').length === n,
      count,
      { timeout: 10_000 },
    )
    return table().locator('tbody tr').allInnerTexts()
  }

  it('narrows the list to one status, steps through claims with j, k and the arrows, and assigns one', async () => {
    await page.goto(`${baseUrl()}/${APP}-admin`)
    await shown(page.getByText(/^\d+ claims? · /))
    expect(await shown(page.getByText(/Keys: j and k open the next and previous claim/))).toContain('?')

    await page.getByLabel('Search submissions').focus()
    await page.keyboard.type('Filterkey')
    expect((await rowsShown(2)).join('\n')).toContain('Received')
    // a select takes the first letters of an option: "In" chooses In review
    await page.getByLabel(/^Status/).focus()
    await page.keyboard.type('In')
    const [row] = await rowsShown(1)
    expect(row).toContain('ines.filterkey@')
    expect(row).toContain('In review')
    await shown(page.getByText('Search results: 1 of'))

    // the arrows, with the focus in the table, open a claim and leave the focus there
    await table().focus()
    await page.keyboard.press('ArrowDown')
    expect(await shown(details())).toContain(IN_REVIEW.email)
    expect(await page.evaluate(() => document.activeElement?.closest('.table-scroll') !== null)).toBe(true)

    await details()
      .getByLabel('Assigned to')
      .selectOption({ label: inject('adminEmail') })
    await shown(details().getByText(`Claim ${ids.inReview} assigned to ${inject('adminEmail')}.`))
    const [assigned] = queryDb<{ assignee_email: string }>(
      'SELECT (SELECT email FROM staff_accounts WHERE id = claims.assignee_id) AS assignee_email FROM claims WHERE id = ?',
      ids.inReview,
    )
    expect(assigned?.assignee_email).toBe(inject('adminEmail'))
    expect(
      queryDb<{ detail: string }>(
        "SELECT detail FROM audit_log WHERE action = 'claim_assigned' ORDER BY id DESC LIMIT 1",
      ),
    ).toEqual([{ detail: `claim ${ids.inReview}: assigned to ${inject('adminEmail')}` }])

    // back to every status: j and k step through the page, newest first
    await page.getByLabel(/^Status/).focus()
    await page.keyboard.type('Al')
    await rowsShown(2)
    await table().focus()
    await page.keyboard.press('k')
    expect(await shown(details())).toContain(RECEIVED.email)
    await page.keyboard.press('j')
    expect(await shown(details())).toContain(IN_REVIEW.email)
    // typing j in the search box is typing, not a step
    await page.getByLabel('Search submissions').focus()
    await page.keyboard.press('End')
    await page.keyboard.type('j')
    expect(await page.getByLabel('Search submissions').inputValue()).toBe('Filterkeyj')
    await page.keyboard.press('Backspace')
    await rowsShown(2)

    await page.getByRole('checkbox', { name: 'Assigned to me' }).focus()
    await page.keyboard.press('Space')
    const [mine] = await rowsShown(1)
    expect(mine).toContain('ines.filterkey@')
    expect(await page.getByLabel(/^Assignee/).inputValue()).toBe('me')

    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'review-filters-1280')
    expect(pageErrors).toEqual([])
  })

  it('fits a phone screen with the filters and the assignee, and passes the axe scan there', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${baseUrl()}/${APP}-admin?claim=${ids.inReview}`)
    const assignee = details().getByLabel('Assigned to')
    await assignee.waitFor({ timeout: 10_000 })
    expect(await assignee.locator('option:checked').innerText()).toBe(inject('adminEmail'))
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'review-filters-390')

    // the filters fold on a phone, so the list comes first; "Filters" opens them from the keyboard
    await page.goto(`${baseUrl()}/${APP}-admin`)
    const fold = page.locator('.filters-fold')
    await shown(fold.locator('summary'))
    expect(await fold.getByLabel('Status').isVisible()).toBe(false)
    await fold.locator('summary').focus()
    await page.keyboard.press('Enter')
    await fold.getByLabel('Status').waitFor({ state: 'visible', timeout: 10_000 })
    await fold.getByLabel('Status').selectOption('in_review')
    expect(await shown(fold.locator('summary'))).toBe('Filters (1 on)')
    await keepScreenshot(page, 'review-filters-open-390')
    expect(pageErrors).toEqual([])
  })
})
