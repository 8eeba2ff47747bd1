import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import {
  baseUrl,
  connectBrowser,
  keepScreenshot,
  proofOfWorkHeaders,
  queryDb,
  shown,
  staffSessionCookies,
} from '../browser.ts'
import { intakeBody } from '../intake/fill-intake.ts'
import { fileClaim } from '../seed.ts'

// albert's dashboard, narrowed by a surname and phones no other spec uses
const APP = 'albert'
const SURNAME = 'Bulkmovera'
const CLAIMANTS = ['6175550171', '6175550172', '6175550173'].map((phoneDigits, i) => ({
  email: `bulk.mover${i}@example.com`,
  phoneDigits,
  lastName: SURNAME,
}))

describe('a reviewer moves two checked claims at once with the keyboard', () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  const ids: number[] = []

  beforeAll(async () => {
    for (const claimant of CLAIMANTS) ids.push(await fileClaim(APP, claimant))
    // someone's main form with the second claimant's e-mail and phone, not confirmed from that e-mail
    const intake = await fetch(`${baseUrl()}/api/intake`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(await proofOfWorkHeaders()) },
      body: JSON.stringify(
        intakeBody({
          firstName: 'Bea',
          lastName: SURNAME,
          email: CLAIMANTS[1]!.email,
          phone: `(${CLAIMANTS[1]!.phoneDigits.slice(0, 3)}) ${CLAIMANTS[1]!.phoneDigits.slice(3, 6)}-${CLAIMANTS[1]!.phoneDigits.slice(6)}`,
          cashAdvanceApps: ['earnin'],
        }),
      ),
    })
    expect(intake.status).toBe(201)
    browser = await connectBrowser()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(await staffSessionCookies())
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
  })

  const table = () => page.getByRole('region', { name: 'All Submissions table' })
  const panel = () => page.getByRole('region', { name: 'Move these claims' })
  const rowOf = (id: number) => table().locator(`tr[data-claim-id="${id}"]`)

  it('checks two rows, previews the move, moves them and sees the progress end and the status change', async () => {
    await page.goto(`${baseUrl()}/${APP}-admin`)
    await page.getByLabel('Search submissions').focus()
    // the list answers the whole name: a part of it, searched while typing, matches the same rows, and
    // checks made in that list would be cleared when the whole name's list replaces it
    const searched = page.waitForResponse(
      (response) => response.url().includes('/submissions?') && response.url().includes(SURNAME),
    )
    await page.keyboard.type(SURNAME)
    await searched
    await page.waitForFunction(() => document.querySelectorAll('.staff-table tbody tr').length === 3, null, {
      timeout: 10_000,
    })

    // "select all on this page" checks the three, a second press clears them
    await table().getByRole('checkbox', { name: 'Select all on this page' }).focus()
    await page.keyboard.press('Space')
    expect(await shown(panel().getByText('The checked rows (3)'))).toBeTruthy()
    await page.keyboard.press('Space')
    await shown(panel().getByText('The checked rows (0)'))

    // a check, then Shift and a check further down the list, check the rows between too; the bar that
    // follows the selection counts them and clears them
    const bar = () => page.getByRole('region', { name: 'Checked claims' })
    await table()
      .getByRole('checkbox', { name: `Select claim ${ids[2]}` })
      .click()
    expect(await shown(bar())).toContain('1 claim checked')
    await table()
      .getByRole('checkbox', { name: `Select claim ${ids[0]}` })
      .click({ modifiers: ['Shift'] })
    expect(await shown(bar())).toContain('3 claims checked')
    expect(
      await table()
        .getByRole('checkbox', { name: `Select claim ${ids[1]}` })
        .isChecked(),
    ).toBe(true)
    await keepScreenshot(page, 'bulk-moves-selection-bar-1280')
    expect(await axeViolations(page)).toEqual([])
    await bar().getByRole('button', { name: 'Clear' }).click()
    await shown(panel().getByText('The checked rows (0)'))
    expect(await bar().count()).toBe(0)

    for (const id of ids.slice(0, 2)) {
      await table()
        .getByRole('checkbox', { name: `Select claim ${id}` })
        .focus()
      await page.keyboard.press('Space')
    }
    await shown(panel().getByText('The checked rows (2)'))
    expect(await panel().getByRole('radio', { name: 'The checked rows (2)' }).isChecked()).toBe(true)
    // from the bar, with the keyboard, to the move's first choice
    await bar().getByRole('button', { name: 'Move them…' }).focus()
    await page.keyboard.press('Enter')
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.value)).toBe(
      'in_review',
    )

    // no status is chosen for the reviewer, and Move waits for a preview
    expect(await panel().getByRole('radio', { checked: true }).count()).toBe(1)
    expect(await panel().getByRole('button', { name: 'Move', exact: true }).isDisabled()).toBe(true)
    await panel().getByRole('radio', { name: 'In review' }).focus()
    await page.keyboard.press('Space')
    await panel().getByRole('button', { name: 'Preview' }).focus()
    await page.keyboard.press('Enter')
    await shown(panel().getByRole('status').getByText('2 claims will move from Received to In review.'))
    // the one to look at first is named, with a link to its details (the claims share one screenshot,
    // so once the duplicate check has run they are named as flagged too)
    await shown(panel().locator('.bulk-attention li'))
    expect(await panel().locator('.bulk-attention li').allInnerTexts()).toContain(
      `1 with a main form not confirmed by the claimant: claim ${ids[1]}`,
    )
    expect(
      await panel()
        .getByRole('link', { name: `claim ${ids[1]}` })
        .first()
        .getAttribute('href'),
    ).toBe(`/${APP}-admin?claim=${ids[1]}`)
    await keepScreenshot(page, 'bulk-moves-preview-1280')

    await panel().getByRole('button', { name: 'Move', exact: true }).focus()
    await page.keyboard.press('Enter')
    await shown(panel().getByText('Done: 2 of 2 moved to In review.'))
    expect(
      await panel()
        .locator('progress')
        .evaluate((bar: HTMLProgressElement) => [bar.value, bar.max]),
    ).toEqual([2, 2])
    await page.waitForFunction(
      (first) =>
        document.querySelector(`tr[data-claim-id="${first}"] td[data-column="status"]`)?.textContent ===
        'In review',
      ids[0],
      { timeout: 10_000 },
    )
    expect(await rowOf(ids[1]!).locator('td[data-column="status"]').innerText()).toBe('In review')
    expect(await rowOf(ids[2]!).locator('td[data-column="status"]').innerText()).toBe('Received')
    // the checks go once the claims moved
    await shown(panel().getByText('The checked rows (0)'))
    expect(
      queryDb<{ n: number }>(
        `SELECT count(*) AS n FROM claim_moves WHERE claim_id IN (${ids.map(() => '?').join(', ')})`,
        ...ids,
      ),
    ).toEqual([{ n: 2 }])

    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'bulk-moves-1280')
    expect(pageErrors).toEqual([])
  })

  it('fits a phone screen and passes the axe scan there', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${baseUrl()}/${APP}-admin`)
    await shown(panel().getByRole('radio', { name: 'In review' }))
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'bulk-moves-390')
    expect(pageErrors).toEqual([])
  })
})
