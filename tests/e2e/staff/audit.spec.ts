import fs from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, downloadedFile, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { tabTo } from '../keyboard.ts'
import { fileClaim } from '../seed.ts'

const CLAIMANT = {
  firstName: 'Audra',
  lastName: 'Audited',
  email: 'audra.audited@example.com',
  phoneDigits: '6025550190',
}

function rowsWith(page: Page, ...texts: string[]) {
  return texts.reduce((rows, text) => rows.filter({ hasText: text }), page.getByRole('row'))
}

describe('an admin reads the audit log', () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  let claimId: number
  const pageErrors: string[] = []

  beforeAll(async () => {
    browser = await connectBrowser()
    claimId = await fileClaim('brigit', CLAIMANT)
    context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
    // the run's one shared sign-in (sign-ins are limited per address, and every spec comes from 127.0.0.1)
    await context.addCookies(await staffSessionCookies())
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
  })
  afterAll(async () => {
    await browser.close()
  })

  it('shows the sign-in gate without a session', async () => {
    const gate = await browser.newPage()
    await gate.goto(`${baseUrl()}/staff/audit`)
    expect(await shown(gate.getByRole('heading', { level: 1 }))).toBe('Audit Log')
    await shown(gate.getByLabel('Password', { exact: true }))
    expect(await gate.getByRole('table').count()).toBe(0)
    await gate.close()
  })

  it('finds their own sign-in under their name, by person and action', async () => {
    await page.goto(`${baseUrl()}/staff/audit`)
    await shown(page.getByRole('heading', { level: 1, name: 'Audit Log' }))
    await shown(page.getByRole('row').nth(1))
    await page.getByLabel('Person').selectOption({ label: `Administrator (${inject('adminEmail')})` })
    await page.getByLabel('Action').selectOption('login_success')
    await shown(page.getByText(/^\d+ (entry|entries) match the filters$/))
    const rows = page.getByRole('row').filter({ hasText: 'Signed in' })
    expect(await shown(rows)).toContain('Administrator')
    expect(await rows.first().innerText()).toContain(inject('adminEmail'))
    expect(new Set(await page.locator('tbody tr td:nth-child(3)').allInnerTexts())).toEqual(
      new Set(['Signed in']),
    )
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await shown(page.getByText(/^\d+ (entry|entries)$/))
  })

  it("records opening a claim's details in the dashboard, and lists it with the admin's name", async () => {
    await page.goto(`${baseUrl()}/brigit-admin`)
    await page
      .getByRole('row')
      .filter({ hasText: CLAIMANT.email })
      .getByRole('button', { name: 'View Details' })
      .click()
    const panel = page.getByRole('region', { name: 'Selected Submission Details' })
    expect(await shown(panel)).toContain('Audra Audited')

    await page.goto(`${baseUrl()}/staff/audit`)
    const view = rowsWith(page, "Viewed a claim's details", `claim ${claimId}`)
    const text = await shown(view)
    expect(text).toContain('Administrator')
    expect(text).toContain('Brigit')
    expect(await axeViolations(page)).toEqual([])
  })

  it('filters by action with the keyboard alone and downloads that CSV', async () => {
    // a view of the claim's details on record, as the dashboard asks for them
    await page.goto(`${baseUrl()}/staff/audit`)
    expect(await page.evaluate(async (id) => (await fetch(`/api/staff/claims/${id}`)).status, claimId)).toBe(
      200,
    )
    await page.reload()
    await shown(page.getByRole('row').nth(1))
    await page.locator('body').click({ position: { x: 1, y: 1 } })
    await tabTo(page, 'select:has(option[value="claim_view"])')
    // a closed select steps through its options with the arrow keys
    for (let presses = 0; presses < 20; presses++) {
      const value = await page.evaluate(() => (document.activeElement as HTMLSelectElement).value)
      if (value === 'claim_view') break
      await page.keyboard.press('ArrowDown')
    }
    expect(await page.getByLabel('Action').inputValue()).toBe('claim_view')
    await shown(page.getByText(/^\d+ (entry|entries) match the filters$/))
    const actions = await page.locator('tbody tr td:nth-child(3)').allInnerTexts()
    expect(actions.length).toBeGreaterThan(0)
    expect(new Set(actions)).toEqual(new Set(["Viewed a claim's details"]))

    await tabTo(page, 'button.primary')
    const [download] = await Promise.all([page.waitForEvent('download'), page.keyboard.press('Enter')])
    expect(download.suggestedFilename()).toMatch(/^audit-log-\d{4}-\d{2}-\d{2}\.csv$/)
    const lines = fs
      .readFileSync(await downloadedFile(download), 'utf8')
      .replace(/^\ufeff/, '')
      .split('\r\n')
      .filter((line) => line !== '')
    expect(lines[0]).toBe('Time,Person,Email,Account ID,Action,App,Detail,Address')
    expect(lines.slice(1).every((line) => line.split(',')[4] === 'claim_view')).toBe(true)
    expect(lines.some((line) => line.includes(`claim ${claimId}`) && line.includes('Administrator'))).toBe(
      true,
    )

    await expect
      .poll(
        () =>
          queryDb<{ detail: string }>(
            "SELECT detail FROM audit_log WHERE action = 'export' ORDER BY id DESC LIMIT 1",
          )[0]?.detail,
      )
      .toMatch(/^audit log, \d+ rows, action claim_view$/)
    expect(pageErrors).toEqual([])
  })

  it("tells on the dashboard when a claim's details cannot be loaded, and Try again loads them", async () => {
    await page.goto(`${baseUrl()}/brigit-admin`)
    // the real server does not fail on demand: its answer for this claim is replaced here
    await page.route(`**/api/staff/claims/${claimId}`, (route) =>
      route.fulfill({
        status: 500,
        json: { error: { code: 'INTERNAL_ERROR', message: 'the server failed' } },
      }),
    )
    const row = page.getByRole('row').filter({ hasText: CLAIMANT.email })
    await row.getByRole('button', { name: 'View Details' }).click()
    const panel = page.getByRole('region', { name: 'Selected Submission Details' })
    expect(await shown(panel.getByRole('alert'))).toBe(
      "The claim's details could not be loaded: the server failed. Press Try again, or Refresh the list if the claim was removed.",
    )
    expect(await panel.innerText()).not.toContain(CLAIMANT.email)
    await page.unroute(`**/api/staff/claims/${claimId}`)
    await panel.getByRole('button', { name: 'Try again' }).click()
    await shown(panel.getByText(CLAIMANT.email))
    await page.goto(`${baseUrl()}/staff/audit`)
  })

  it('tells a bad date range on the page', async () => {
    await page.goto(`${baseUrl()}/staff/audit`)
    await page.getByLabel('From', { exact: true }).fill('2026-11-27')
    await page.getByLabel('To', { exact: true }).fill('2026-11-20')
    expect(await shown(page.getByRole('alert'))).toContain('"from" must be on or before "to"')
    await page.getByRole('button', { name: 'Clear filters' }).click()
    await shown(page.getByRole('row').nth(1))
  })
})
