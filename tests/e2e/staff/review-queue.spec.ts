import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import { axeViolations } from '../accessibility/axe.ts'
import {
  baseUrl,
  connectBrowser,
  keepScreenshot,
  proofOfWorkHeaders,
  shown,
  staffSessionCookies,
} from '../browser.ts'
import { intakeBody } from '../intake/fill-intake.ts'
import { fileClaim } from '../seed.ts'

// floatme: an app no other spec of this run files claims in (so no other spec's list changes); e-mails
// and phones no other spec uses: the search "queue.walk" lists these claims alone
const APP = 'floatme'
const QUEUE_SIZE = 24
const claimant = (n: number) => ({
  email: `queue.walk.${String(n).padStart(2, '0')}@example.com`,
  phoneDigits: `60255503${String(n).padStart(2, '0')}`,
  firstName: 'Quinn',
  lastName: `Walker${n}`,
})

/** Whether the element's box lies wholly within the window ('no box' and where it is when not). */
async function isWithinViewport(page: Page, selector: string): Promise<boolean | string> {
  return page.evaluate((wanted) => {
    const box = document.querySelector(wanted)?.getBoundingClientRect()
    if (box === undefined) return 'no box'
    const isWithin = box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight
    return isWithin || `${wanted} at ${box.top}–${box.bottom} of ${window.innerHeight}`
  }, selector)
}

const focused = (page: Page) =>
  page.evaluate(() => {
    const element = document.activeElement
    return {
      role: element?.getAttribute('type') ?? element?.tagName.toLowerCase(),
      label: element?.closest('label')?.textContent?.trim() ?? element?.textContent?.trim(),
      inPanel: element?.closest('.details-panel') !== null,
    }
  })

describe('the review queue: the list first, the open claim beside it, the keys and the address', () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  const ids: number[] = []
  let intake: CreatedIntake
  let intakeClaimId = 0

  beforeAll(async () => {
    for (let n = 1; n <= QUEUE_SIZE; n++) ids.push(await fileClaim(APP, claimant(n)))
    const response = await fetch(`${baseUrl()}/api/intake`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(await proofOfWorkHeaders()) },
      body: JSON.stringify(
        intakeBody({
          firstName: 'Ines',
          lastName: 'Reference',
          email: 'ines.reference.queue@example.com',
          phone: '(602) 555-0399',
          cashAdvanceApps: ['earnin'],
        }),
      ),
    })
    expect(response.status).toBe(201)
    intake = (await response.json()) as CreatedIntake
    intakeClaimId = await fileClaim(
      'earnin',
      { email: 'ines.reference.queue@example.com', phoneDigits: '6025550399', firstName: 'Ines' },
      { journeyToken: intake.steps[0]!.path.split('#prefill=')[1]! },
    )
    browser = await connectBrowser()
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    await context.addCookies(await staffSessionCookies())
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
  })

  it('keeps the open claim beside the list after scrolling, and a move opens the next claim at its decision (1280 px, keys alone)', async () => {
    await page.goto(`${baseUrl()}/${APP}-admin?q=queue.walk`)
    const rows = page.locator('tr[data-claim-id]')
    await shown(rows.nth(QUEUE_SIZE - 1), 30_000)
    // the figures and the filters' choices are in: the page has its final layout
    await shown(page.getByText(/^\d+ claims? · /))
    // the list first: a skip link, among the first Tabs, lands in the list
    let tabs = 0
    while (!(await page.evaluate(() => document.activeElement?.textContent === 'Skip to the claims'))) {
      await page.keyboard.press('Tab')
      if (++tabs > 5) throw new Error('"Skip to the claims" is not within the first five Tabs')
    }
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe(
      'All Submissions table',
    )

    // down the list, then a claim in the middle of the screen, far below the first
    await page.keyboard.press('PageDown')
    // Chromium animates a keyboard scroll: wait until the page stands still
    await expect
      .poll(async () => {
        const before = await page.evaluate(() => window.scrollY)
        await page.waitForTimeout(150)
        return before === (await page.evaluate(() => window.scrollY)) ? before : -1
      })
      .toBeGreaterThan(300)
    const at = await rows.evaluateAll((all) =>
      all.findIndex((each) => each.getBoundingClientRect().top > window.innerHeight / 2),
    )
    expect(at).toBeGreaterThan(5)
    const row = rows.nth(at)
    await row.getByRole('button', { name: 'View Details' }).focus()
    await page.keyboard.press('Enter')
    const panel = page.getByRole('region', { name: 'Selected Submission Details' })
    await shown(panel.getByText('Status: Received'))
    // the panel is where the reviewer is looking, and the page did not jump to it: the claim's row is
    // still on the screen beside it (the list narrows as the panel opens; the row is held in its place)
    await expect.poll(() => isWithinViewport(page, '.details-panel'), { timeout: 2_000 }).toBe(true)
    const opened = `tr[data-claim-id="${await row.getAttribute('data-claim-id')}"]`
    expect(await isWithinViewport(page, opened)).toBe(true)
    expect(await isWithinViewport(page, '.details-panel .staff-screenshot')).toBe(true)

    // the screenshot zooms in the panel (no new tab), and the decision stays beside it
    await page.keyboard.press('z')
    expect(await panel.getByRole('button', { pressed: true }).count()).toBe(1)
    expect(context.pages()).toHaveLength(1)
    await page.keyboard.press('1')
    const firstMove = panel.getByRole('radio').first()
    expect(await firstMove.isChecked()).toBe(true)
    expect(await isWithinViewport(page, '.details-panel .screenshot-frame')).toBe(true)
    expect(await isWithinViewport(page, '.details-panel input[type="radio"]')).toBe(true)
    await keepScreenshot(page, 'review-queue-zoomed-1280')

    // Enter makes the move; the list's next claim opens with the focus on its decision
    const movedId = Number(await row.getAttribute('data-claim-id'))
    const nextId = Number(await rows.nth(at + 1).getAttribute('data-claim-id'))
    await page.keyboard.press('Enter')
    await page.waitForURL(`**/${APP}-admin/claims/${nextId}?q=queue.walk`)
    await shown(
      page.getByRole('status').getByText(new RegExp(`Claim ${movedId} moved to .*Next: claim ${nextId}`)),
    )
    await expect.poll(() => focused(page)).toMatchObject({ role: 'radio', inPanel: true })
    expect(await isWithinViewport(page, '.details-panel')).toBe(true)

    // `?` lists the keys in a dialog; Esc closes it and the focus is back on the decision
    await page.keyboard.press('?')
    const sheet = page.getByRole('dialog', { name: 'Keyboard shortcuts' })
    expect(await shown(sheet)).toMatch(/Search[\s\S]*Close the open claim/)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'review-queue-shortcuts-1280')
    await page.keyboard.press('Escape')
    await sheet.waitFor({ state: 'hidden' })
    expect(await focused(page)).toMatchObject({ role: 'radio', inPanel: true })

    // Esc closes the claim: the list's address again, the focus on the claim's row
    await page.keyboard.press('Escape')
    await page.waitForURL(new RegExp(`/${APP}-admin\\?q=queue\\.walk$`))
    expect(await panel.count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    expect(pageErrors).toEqual([])
  })

  it('keeps the search, a filter and the order in the address through a reload and Back', async () => {
    await page.goto(`${baseUrl()}/${APP}-admin`)
    await shown(page.locator('tr[data-claim-id]'), 30_000)
    // the statuses are in: the Status filter offers them
    await shown(page.getByText(/^\d+ claims? · /))
    await page.keyboard.press('/')
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('type'))).toBe('search')
    await page.keyboard.type('queue.walk')
    await page.getByRole('combobox', { name: /^Status/ }).focus()
    await page.keyboard.press('ArrowDown')
    await page.getByRole('button', { name: 'Claim' }).focus()
    await page.keyboard.press('Enter')
    await page.waitForURL(/q=queue\.walk&status=received&order=oldest/)
    const firstRow = page.locator('tr[data-claim-id]').first()
    await expect.poll(() => firstRow.getAttribute('data-claim-id')).toBe(String(ids[0]))

    await page.reload()
    await expect.poll(() => firstRow.getAttribute('data-claim-id')).toBe(String(ids[0]))
    expect(await page.getByRole('searchbox', { name: 'Search submissions' }).inputValue()).toBe('queue.walk')
    expect(await page.getByRole('combobox', { name: /^Status/ }).inputValue()).toBe('received')
    expect(new Set(await page.locator('td[data-column="status"]').allInnerTexts())).toEqual(
      new Set(['Received']),
    )

    await page.getByRole('link', { name: 'Filing settings' }).focus()
    await page.keyboard.press('Enter')
    await page.waitForURL(`**/${APP}-admin/filing`)
    await page.goBack()
    await page.waitForURL(/q=queue\.walk&status=received&order=oldest/)
    await expect.poll(() => firstRow.getAttribute('data-claim-id')).toBe(String(ids[0]))
    expect(pageErrors).toEqual([])
  })

  it("finds a claim by its intake reference, and j opens the list's first claim before any is open (390 px)", async () => {
    const phone = await context.newPage()
    await phone.setViewportSize({ width: 390, height: 844 })
    await phone.goto(`${baseUrl()}/earnin-admin`)
    await shown(phone.locator('tr[data-claim-id]'))
    await phone.keyboard.press('/')
    await phone.keyboard.type(intake.reference)
    const rows = phone.locator('tr[data-claim-id]')
    await expect
      .poll(() => rows.evaluateAll((all) => all.map((row) => row.getAttribute('data-claim-id'))))
      .toEqual([String(intakeClaimId)])
    await keepScreenshot(phone, 'review-queue-reference-390')
    expect(await axeViolations(phone)).toEqual([])
    // off the search box (a letter typed there is text), j opens the first claim of the list
    await phone.keyboard.press('Tab')
    await phone.keyboard.press('j')
    await phone.waitForURL(`**/earnin-admin/claims/${intakeClaimId}?q=${intake.reference}`)
    await shown(phone.getByRole('region', { name: 'Selected Submission Details' }).getByText('Status:'))
    await keepScreenshot(phone, 'review-queue-open-390')
    expect(await axeViolations(phone)).toEqual([])
    await phone.close()
  })
})
