import fs from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { baseUrl, connectBrowser, downloadedFile, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { axeViolations } from '../accessibility/axe.ts'
import { fileClaim } from '../seed.ts'
import { type ClaimantInput } from '../step2/fill-claim.ts'

type Claimant = Required<ClaimantInput>

// phones and e-mails no other spec uses, so searches find exactly these
const DANA: Claimant = {
  firstName: 'Dana',
  lastName: 'Staffview',
  email: 'dana.staffview@example.com',
  phoneDigits: '6025550101',
}
const ELI: Claimant = {
  firstName: 'Eli',
  lastName: 'Staffview',
  email: 'eli.staffview@example.net',
  phoneDigits: '6025550102',
}
const FERN: Claimant = {
  firstName: 'Fern',
  lastName: 'Staffview',
  email: 'fern.staffview@example.org',
  phoneDigits: '6025550103',
}
const CLAIMANTS = [DANA, ELI, FERN]
const LATE_CLAIMANT: Claimant = {
  firstName: 'Gale',
  lastName: 'Latecomer',
  email: 'gale.latecomer@example.com',
  phoneDigits: '6025550104',
}
const SEARCH_BOX = 'Search: e-mail, phone, name, claim ID, IN-000042, case number'

interface StoredClaim {
  id: number
  first_name: string
  email: string
  phone_number: string
}

function brigitFigures(): { total: number; months: number; advances: number } {
  const [row] = queryDb<{ total: number; months: number | null; advances: number | null }>(
    "SELECT COUNT(*) AS total, AVG(membership_months) AS months, AVG(cash_advance_count) AS advances FROM claims WHERE app = 'brigit'",
  )
  return { total: row!.total, months: Math.round(row!.months ?? 0), advances: Math.round(row!.advances ?? 0) }
}

async function statValue(page: Page, label: string): Promise<string> {
  // the figures are folded into their one-line summary until opened
  const fold = page.locator('details.stats-fold')
  if ((await fold.getAttribute('open')) === null) await fold.locator('summary').click()
  const card = page.getByRole('listitem').filter({ hasText: label })
  // a card reads "{label}\n{value}", with '…' until the stats arrive
  const value = async () => (await card.innerText()).trim().split('\n').pop()!.trim()
  await expect.poll(value, { timeout: 10_000 }).not.toBe('…')
  return value()
}

/** The cells of one CSV line: quoted cells may hold commas, and "" stands for one quote. */
function csvCells(line: string): string[] {
  return [...line.matchAll(/(?:^|,)(?:"((?:[^"]|"")*)"|([^,]*))/g)].map((match) =>
    match[1] !== undefined ? match[1].replaceAll('""', '"') : (match[2] ?? ''),
  )
}

function rowFor(page: Page, text: string) {
  return page.getByRole('row').filter({ hasText: text })
}

describe('staff use the Brigit dashboard', () => {
  let browser: Browser
  const pageErrors: string[] = []

  beforeAll(async () => {
    browser = await connectBrowser()
    // the claims reach the server the way the form sends them; the form is the step2 specs' subject
    for (const claimant of CLAIMANTS) await fileClaim('brigit', claimant)
  })
  afterAll(async () => {
    await browser.close()
  })

  /**
   * A laptop-sized page of its own. Its requests come from an address of their own (the server believes
   * loopback's X-Forwarded-For): sign-ins are limited per address, and the other specs sign in from
   * 127.0.0.1.
   */
  async function openPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
      extraHTTPHeaders: { 'X-Forwarded-For': '203.0.113.31' },
    })
    const page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
    return { context, page }
  }

  /** The dashboard, signed in with the run's shared staff session (the sign-in is the first tests' subject). */
  async function openDashboard(): Promise<{ context: BrowserContext; page: Page }> {
    const opened = await openPage()
    await opened.context.addCookies(await staffSessionCookies())
    await opened.page.goto(`${baseUrl()}/brigit-admin`)
    await shown(rowFor(opened.page, DANA.email))
    return opened
  }

  /** Signs in at the gate the page shows, as a person does. */
  async function signIn(page: Page): Promise<void> {
    await page.getByLabel('Email').fill(inject('adminEmail'))
    await page.getByLabel('Password', { exact: true }).fill(inject('adminPassword'))
    await page.getByRole('button', { name: 'Access Dashboard' }).click()
    await shown(page.getByRole('heading', { level: 1, name: 'Brigit Admin Dashboard' }))
  }

  it('shows the gate, and a wrong password is refused with the spec message', async () => {
    const { page } = await openPage()
    await page.goto(`${baseUrl()}/brigit-admin`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Brigit Admin Access')
    await shown(page.getByText('Authorized personnel only.'))
    await page.getByLabel('Email').fill(inject('adminEmail'))
    const password = page.getByLabel('Password', { exact: true })
    expect(await password.getAttribute('type')).toBe('password')

    await password.fill('not-the-password')
    const toggle = page.getByRole('button', { name: 'Show' })
    await toggle.click()
    expect(await password.getAttribute('type')).toBe('text')
    expect(await page.getByRole('button', { name: 'Hide' }).getAttribute('aria-pressed')).toBe('true')
    await page.getByRole('button', { name: 'Hide' }).click()
    expect(await password.getAttribute('type')).toBe('password')

    await page.getByRole('button', { name: 'Access Dashboard' }).click()
    expect(await shown(page.getByRole('alert'))).toBe('Invalid email or password. Please try again.')
    expect(await page.getByRole('table').count()).toBe(0)
    // the gate with its refusal showing passes axe (WCAG 2.1 AA), as every staff page does
    expect(await axeViolations(page)).toEqual([])
  })

  it('logs in with the right password and shows the title, subtitle and the right stat cards', async () => {
    const { page } = await openPage()
    await page.goto(`${baseUrl()}/brigit-admin`)
    await signIn(page)
    await shown(page.getByText('Manage Brigit submissions and view screenshots'))
    await shown(rowFor(page, DANA.email))

    const figures = brigitFigures()
    expect(figures.total).toBeGreaterThanOrEqual(CLAIMANTS.length)
    expect(await statValue(page, 'Total Submissions')).toBe(String(figures.total))
    expect(await statValue(page, 'Avg Membership Months')).toBe(String(figures.months))
    expect(await statValue(page, 'Avg Cash Advances')).toBe(String(figures.advances))
    await page.getByRole('img', { name: 'Submissions per day, last 90 days' }).waitFor()
    const headers = await page.getByRole('columnheader').allInnerTexts()
    // the list is newest first: Claim and Date, which sort it, show the order's arrow
    expect(headers.filter((text) => text.includes('↓'))).toEqual(['Claim↓', 'Date↓'])
    expect(headers.map((text) => text.replace('↓', '').trim())).toEqual([
      'Claim',
      'Name',
      'Email',
      'Phone',
      'Cash Advances',
      'Membership',
      'Language',
      'Date',
      'Confirmed',
      'Status',
      'Score',
      'Flagged',
      'Actions',
    ])
  })

  it('searches on the server by an e-mail fragment and by a digits-only phone', async () => {
    const { page } = await openDashboard()
    const total = brigitFigures().total
    const search = page.getByPlaceholder(SEARCH_BOX)
    await search.fill('eli.staffview@example')
    await shown(page.getByText(`Search results: 1 of ${total} submissions`))
    expect(await page.locator('tbody tr').count()).toBe(1)
    await shown(rowFor(page, 'eli.staffview@example.net'))

    await search.fill('6025550103')
    await shown(page.getByText(`Search results: 1 of ${total} submissions`))
    await shown(rowFor(page, 'fern.staffview@example.org'))
    expect(await page.locator('tbody tr').count()).toBe(1)

    await search.fill('no-such-claimant-xyz')
    await shown(page.getByText('No submissions match "no-such-claimant-xyz"'))
    await shown(page.getByText(/^Try an e-mail, a phone number, a name, a claim ID/))

    await page.getByRole('button', { name: 'Clear' }).click()
    expect(await search.inputValue()).toBe('')
    await shown(rowFor(page, DANA.email))
    await page.getByText(/^Search results:/).waitFor({ state: 'detached', timeout: 5_000 })
    expect(await page.locator('tbody tr').count()).toBe(Math.min(total, 50))
  })

  it('opens the details of a claim with its screenshot, full size in a new tab', async () => {
    const { context, page } = await openDashboard()
    const [stored] = queryDb<StoredClaim>(
      "SELECT id, first_name, email, phone_number FROM claims WHERE app = 'brigit' AND email = ?",
      DANA.email,
    )
    await rowFor(page, DANA.email).getByRole('button', { name: 'View Details' }).click()
    const panel = page.getByRole('region', { name: 'Selected Submission Details' })
    await shown(panel)
    const text = await panel.innerText()
    for (const expected of ['Dana Staffview', DANA.email, '(602) 555-0101', '3 times', '12 months']) {
      expect(text).toContain(expected)
    }

    const image = panel.getByRole('img', { name: 'Bank statement screenshot from Dana Staffview' })
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.complete && element.naturalWidth))
      .toBeGreaterThan(0)
    expect(await image.getAttribute('src')).toBe(`/api/staff/claims/${stored!.id}/screenshot`)

    const [tab] = await Promise.all([
      context.waitForEvent('page'),
      panel.getByRole('link', { name: 'Open in a new tab' }).click(),
    ])
    await tab.waitForLoadState()
    expect(tab.url()).toBe(`${baseUrl()}/api/staff/claims/${stored!.id}/screenshot`)
    expect(await tab.evaluate(() => document.contentType)).toBe('image/png')
    expect(await tab.evaluate(() => document.images[0]?.naturalWidth ?? 0)).toBeGreaterThan(0)
    await tab.close()

    // the row's View Screenshot opens the claim with its screenshot zoomed in the panel, in this tab
    await rowFor(page, ELI.email).getByRole('button', { name: 'View Screenshot' }).click()
    await shown(panel.getByRole('img', { name: /Bank statement screenshot from Eli/ }))
    expect(await panel.getByRole('button', { pressed: true }).count()).toBe(1)
    expect(context.pages()).toHaveLength(1)
  })

  it("downloads a claim's evidence bundle from its details, and the download is on record", async () => {
    const { page } = await openDashboard()
    const [stored] = queryDb<StoredClaim>(
      "SELECT id FROM claims WHERE app = 'brigit' AND email = ?",
      DANA.email,
    )
    await rowFor(page, DANA.email).getByRole('button', { name: 'View Details' }).click()
    const panel = page.getByRole('region', { name: 'Selected Submission Details' })
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Download evidence' }).click(),
    ])
    expect(download.suggestedFilename()).toBe(`claim-${stored!.id}-evidence.zip`)
    const bytes = fs.readFileSync(await downloadedFile(download))
    // a ZIP, its files named in its central directory
    expect(bytes.subarray(0, 2).toString('latin1')).toBe('PK')
    for (const name of ['agreement.pdf', 'record.json', 'ledger.json', 'VERIFY.txt']) {
      expect(bytes.includes(Buffer.from(name))).toBe(true)
    }
    const [logged] = queryDb<{ detail: string }>(
      "SELECT detail FROM audit_log WHERE action = 'evidence_download' ORDER BY id DESC LIMIT 1",
    )
    expect(logged?.detail).toBe(`claim ${stored!.id}`)
  })

  it('downloads the CSV with the spec columns and the claims in it', async () => {
    const { page } = await openDashboard()
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download CSV' }).click(),
    ])
    expect(download.suggestedFilename()).toMatch(/^brigit-submissions-\d{4}-\d{2}-\d{2}\.csv$/)
    const bytes = fs.readFileSync(await downloadedFile(download))
    // UTF-8's byte-order mark first, so Excel reads accented names right
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf])
    const lines = bytes
      .subarray(3)
      .toString('utf8')
      .split(/\r?\n/)
      .filter((line) => line !== '')
    expect(lines[0]).toBe(
      'ID,Submission Date,First Name,Last Name,Email,Phone Number,Cash Advance Count,Membership Months,Screenshot URL,Time Zone,Confirmed At,Language,Flagged,Flagged Claim IDs,Status,Reason,Status Date,Assignee,Main Form Reference,UTM Source,UTM Medium,UTM Campaign,UTM Content,UTM Term,GCLID,FBCLID,Referrer,Fraud Score,Fraud Reasons',
    )
    expect(lines.length - 1).toBe(brigitFigures().total)
    const fern = lines.find((line) => line.includes('fern.staffview@example.org'))
    expect(csvCells(fern ?? '').slice(2, 8)).toEqual([
      'Fern',
      'Staffview',
      'fern.staffview@example.org',
      '(602) 555-0103',
      '3',
      '12',
    ])
    await shown(page.getByRole('button', { name: 'Download CSV' }))
  })

  it('tells the user with an alert when the CSV download fails', async () => {
    const { page } = await openDashboard()
    // the real server does not fail on demand: its answer to the download's check is replaced here
    let downloads = 0
    page.on('download', () => downloads++)
    await page.route('**/export.csv*', (route) =>
      route.fulfill({ status: 500, json: { error: { code: 'INTERNAL_ERROR', message: 'boom' } } }),
    )
    // dismissed as it opens, as a person would: a dialog left open until the click resolved could
    // hold the click (Playwright waits for the page's scheduled work) when the alert came quickly
    const alerts: string[] = []
    page.once('dialog', (dialog) => {
      alerts.push(dialog.message())
      void dialog.dismiss()
    })
    await page.getByRole('button', { name: 'Download CSV' }).click()
    await expect.poll(() => alerts, { timeout: 10_000 }).toEqual(['Error downloading CSV file'])
    expect(downloads).toBe(0)
    await page.unroute('**/export.csv*')
    await shown(page.getByRole('button', { name: 'Download CSV' }))
  })

  it('shows a claim sent after the page loaded once Refresh is pressed', async () => {
    const { page } = await openDashboard()
    await fileClaim('brigit', LATE_CLAIMANT)
    expect(await rowFor(page, LATE_CLAIMANT.email).count()).toBe(0)
    const reloaded = page.waitForResponse((response) => response.url().includes('/stats'))
    await page.getByRole('button', { name: 'Refresh' }).click()
    await reloaded
    await shown(rowFor(page, LATE_CLAIMANT.email))
    expect(await statValue(page, 'Total Submissions')).toBe(String(brigitFigures().total))
  })

  it('keeps the page inside a phone screen: the table scrolls sideways in its own region', async () => {
    const { page } = await openDashboard()
    await page.setViewportSize({ width: 390, height: 844 })
    const region = page.getByRole('region', { name: 'All Submissions table' })
    await shown(region)
    const sizes = await region.evaluate((element) => ({
      inner: element.scrollWidth,
      outer: element.clientWidth,
      page: document.documentElement.scrollWidth,
    }))
    expect(sizes.inner).toBeGreaterThan(sizes.outer)
    expect(sizes.page).toBeLessThanOrEqual(390)
  })

  it('goes back to the gate when a call answers 401 because the session ended elsewhere', async () => {
    // a session of its own, which this test ends
    const { page } = await openPage()
    await page.goto(`${baseUrl()}/brigit-admin`)
    await signIn(page)
    const status = await page.evaluate(
      async () => (await fetch('/api/staff/logout', { method: 'POST' })).status,
    )
    expect(status).toBe(204)
    await page.getByRole('button', { name: 'Refresh' }).click()
    await shown(page.getByLabel('Password', { exact: true }))
    expect(await page.getByRole('table').count()).toBe(0)
  })

  it('logs out, and visiting the dashboard again shows the gate', async () => {
    const { page } = await openPage()
    await page.goto(`${baseUrl()}/brigit-admin`)
    await signIn(page)
    await page.getByRole('button', { name: 'Sign out' }).click()
    await shown(page.getByLabel('Password', { exact: true }))
    await page.goto(`${baseUrl()}/brigit-admin`)
    await shown(page.getByLabel('Password', { exact: true }))
    expect(await page.getByRole('heading', { name: 'Brigit Admin Dashboard' }).count()).toBe(0)
    const status = await page.evaluate(async () => (await fetch('/api/staff/apps/brigit/submissions')).status)
    expect(status).toBe(401)
    expect(pageErrors).toEqual([])
  })
})
