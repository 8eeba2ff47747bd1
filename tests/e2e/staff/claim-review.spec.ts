import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { fileClaim } from '../seed.ts'

// a phone and an e-mail no other spec uses
const CLAIMANT = { email: 'rene.review@example.com', phoneDigits: '6025550191', firstName: 'Rene' }

describe('a reviewer moves a claim in its details', () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  let claimId = 0

  beforeAll(async () => {
    claimId = await fileClaim('brigit', CLAIMANT)
    browser = await connectBrowser()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(await staffSessionCookies())
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
  })

  const review = () =>
    page.getByRole('region', { name: 'Selected Submission Details' }).locator('.claim-review')

  // the list narrowed to this claim by its number, so a move keeps it open (a move opens the list's
  // next claim, review-queue.spec.ts)
  it('moves a new claim into review and marks it deficient with a reason and a note, with the keyboard alone', async () => {
    await page.goto(`${baseUrl()}/brigit-admin?q=${claimId}&claim=${claimId}`)
    await shown(review().getByText('Status: Received'))
    expect(await shown(review())).toContain('No move yet: the claim is as it arrived.')

    // nothing is chosen at first: the reviewer picks the one move there is with the space bar
    await review().getByRole('radio', { name: 'In review' }).focus()
    await page.keyboard.press('Space')
    await review().getByRole('button', { name: 'Move to In review' }).focus()
    await page.keyboard.press('Enter')
    await shown(page.getByRole('status').getByText(`Claim ${claimId} moved to In review.`))
    await shown(review().getByText('Status: In review'))
    await keepScreenshot(page, 'claim-review-form-1280')

    // the radio group: the arrow keys choose from one move to the next
    await review().getByRole('radio', { name: 'Approved' }).focus()
    await page.keyboard.press('Space')
    expect(await review().getByRole('button', { name: 'Move to Approved' }).isVisible()).toBe(true)
    await page.keyboard.press('ArrowRight')
    expect(await review().getByRole('radio', { name: 'Deficient' }).isChecked()).toBe(true)
    await page.keyboard.press('Tab')
    await page.keyboard.press('ArrowDown')
    expect(await review().getByLabel('Reason').inputValue()).toBe('screenshot_unreadable')
    // before sending, the reviewer reads what the notice will tell the claimant
    expect(await shown(review().locator('.reason-told'))).toBe(
      'The claimant will be told: “We could not read your bank statement screenshot. Please upload a clearer one.”',
    )
    await page.keyboard.press('Tab')
    await page.keyboard.type('the figures are blurred')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Enter')
    await shown(review().getByText('Status: Deficient'))

    const history = await shown(review().getByRole('list'))
    expect(history).toMatch(/Received → In review, by \S+@\S+/)
    expect(history).toMatch(/In review → Deficient, Screenshot unreadable, by \S+@\S+/)
    expect(history).toContain('Note: the figures are blurred')
    expect(
      queryDb<{ to_status: string; reason: string | null }>(
        'SELECT to_status, reason FROM claim_moves WHERE claim_id = ? ORDER BY id',
        claimId,
      ),
    ).toEqual([
      { to_status: 'in_review', reason: null },
      { to_status: 'deficient', reason: 'screenshot_unreadable' },
    ])
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'claim-review-1280')
    expect(pageErrors).toEqual([])
  })

  it('fits a phone screen with the review open', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${baseUrl()}/brigit-admin?q=${claimId}&claim=${claimId}`)
    await shown(review().getByText('Status: Deficient'))
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    await keepScreenshot(page, 'claim-review-390')
  })
})
