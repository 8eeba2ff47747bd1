import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { SQLITE_FILE_NAME } from '../../../server/db/create-db.ts'
import type { Database as Tables } from '../../../server/db/database.ts'
import { loadEvidenceKey } from '../../../server/evidence/evidence-key.ts'
import { loadReviews } from '../../../server/lifecycle/load-review-config.ts'
import { SAME_ACCOUNT_MESSAGE } from '../../../server/payouts/payout-batches.ts'
import { ACCOUNT_NUMBER_PURPOSE } from '../../../server/payouts/payout-files.ts'
import { loadPaymentsKey, sealNumber } from '../../../server/payouts/sealed-numbers.ts'
import { DAY_MS } from '../../../src/durations.ts'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'
import type { PayoutMethod } from '../../../src/payout-details.ts'
import { moveClaimTo } from '../../server/support/claims.ts'
import { FORMS_DIR } from '../../server/support/helpers.ts'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { openFilePickerByKeyboard, tabTo, typeText } from '../keyboard.ts'
import { fileClaim } from '../seed.ts'
import { addStaffAccount } from './staff-account.ts'

// DailyPay: no other spec files a claim with the provider, so its filed claims are this spec's own
const APP = 'dailypay'
const CLAIMANTS = ['Ikaika', 'Noelani', 'Keoni', 'Malia'].map((firstName, i) => ({
  firstName,
  lastName: 'Payee',
  email: `${firstName.toLowerCase()}.payee@example.com`,
  phoneDigits: `505555080${i}`,
}))
// two accountants with the app's payments right and no decide right: one builds, the other approves
const ACCOUNTANT_PASSWORD = 'an accountant e2e password'
const MAKER = { email: 'avery.accountant@e2e.test', name: 'Avery Accountant', address: '203.0.113.61' }
const CHECKER = { email: 'blake.bookkeeper@e2e.test', name: 'Blake Bookkeeper', address: '203.0.113.62' }
const ACCOUNT_NUMBER = '4455667788'
const SSNS = ['234-56-7891', '234-56-7892']
/** A day as staff pages show it: in the firm's time zone. */
const firmDate = (at: number) =>
  new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: FIRM_SETTINGS.timeZone }).format(at)
/** The provider's case number of the n-th claimant's claim. */
const caseNumberOf = (n: number) => `01-26-0054-000${n + 1}`

/** Waits until the server's fraud scoring has written each claim: its write and the moves here do not cross. */
async function scored(claimIds: number[]): Promise<void> {
  await vi.waitFor(
    () => {
      const rows = queryDb<{ fraud_score: number | null }>(
        `SELECT fraud_score FROM claims WHERE id IN (${claimIds.map(() => '?').join(',')})`,
        ...claimIds,
      )
      if (rows.some((row) => row.fraud_score === null)) throw new Error('not scored yet')
    },
    { timeout: 60_000, interval: 500 },
  )
}

/**
 * Each claim moved to filed by the product's own moves (the provider's case-number import makes the
 * last one, which the filing spec walks through), then given its case number, in the e2e server's
 * SQLite file beside the running server.
 */
async function fileWithProvider(claims: { id: number; caseNumber: string }[]): Promise<void> {
  const dataDir = inject('dataDir')
  await withDb(async (db) => {
    const ctx = {
      db,
      evidenceKey: loadEvidenceKey({ setting: undefined, dataDir }),
      reviews: loadReviews(FORMS_DIR, [APP]),
    }
    for (const { id, caseNumber } of claims) {
      await moveClaimTo(ctx, { id, app: APP, status: 'filed' })
      await db.updateTable('claims').set({ case_number: caseNumber }).where('id', '=', id).execute()
    }
  })
}

/** The e2e server's SQLite file, open beside the running server, for `use`. */
async function withDb<T>(use: (db: Kysely<Tables>) => Promise<T>): Promise<T> {
  const db = new Kysely<Tables>({
    dialect: new SqliteDialect({
      database: new Database(path.join(inject('dataDir'), SQLITE_FILE_NAME)),
    }),
  })
  try {
    return await use(db)
  } finally {
    await db.destroy()
  }
}

/** A claimant's payment choice and W-9 (or none), numbers sealed as the claimant's page seals them. */
interface PaymentChoice {
  claimId: number
  method: PayoutMethod
  bank?: { routingNumber: string; accountNumber: string }
  w9?: { legalName: string; ssn: string }
}

/** Writes each claimant's payment choice and W-9, as the claimant's payment section stores them. */
async function choosePayments(choices: PaymentChoice[]): Promise<void> {
  const key = loadPaymentsKey({ setting: undefined, dataDir: inject('dataDir') })
  const lastFour = (digits: string) => digits.replace(/\D/g, '').slice(-4)
  await withDb(async (db) => {
    for (const { claimId, method, bank, w9 } of choices) {
      await db
        .insertInto('payout_choices')
        .values({
          claim_id: claimId,
          method,
          receiver: null,
          receiver_type: null,
          routing_number: bank?.routingNumber ?? null,
          account_sealed: bank
            ? sealNumber({ key, value: bank.accountNumber, purpose: ACCOUNT_NUMBER_PURPOSE })
            : null,
          account_last4: bank ? lastFour(bank.accountNumber) : null,
          account_type: bank ? 'checking' : null,
          chosen_at: Date.now(),
        })
        .execute()
      if (!w9) continue
      await db
        .insertInto('tax_forms')
        .values({
          claim_id: claimId,
          legal_name: w9.legalName,
          tin_type: 'ssn',
          tin_sealed: sealNumber({ key, value: w9.ssn, purpose: 'tin' }),
          tin_last4: lastFour(w9.ssn),
          address: '400 W Washington St',
          city: 'Phoenix',
          state: 'AZ',
          zip_code: '85003',
          signature_method: 'typed',
          signature: w9.legalName,
          certified_at: Date.now(),
          ip_address: '127.0.0.1',
          user_agent: 'e2e',
        })
        .execute()
    }
  })
}

/**
 * Signs an account in through the API from an address of its own (the sign-in limit counts by
 * address, and the other specs sign in from 127.0.0.1) and gives its session's cookies.
 */
async function signIn(
  email: string,
  address: string,
): Promise<{ name: string; value: string; url: string }[]> {
  const response = await fetch(`${baseUrl()}/api/staff/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseUrl(), 'X-Forwarded-For': address },
    body: JSON.stringify({ email, password: ACCOUNTANT_PASSWORD }),
  })
  if (response.status !== 204) throw new Error(`signing ${email} in answered ${response.status}`)
  return response.headers.getSetCookie().map((header) => {
    const [pair = ''] = header.split(';')
    const at = pair.indexOf('=')
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseUrl() }
  })
}

/** The CSV file at a temporary path. */
function csvFile(name: string, lines: string[]): string {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-awards-')), name)
  fs.writeFileSync(file, lines.join('\r\n'))
  return file
}

/** The focused element's text, trimmed. */
const focusedText = (page: Page) => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '')

describe('payouts: awards imported and shared, a payout batch built by one account and approved by another', () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  const claimIds: number[] = []

  beforeAll(async () => {
    for (const claimant of CLAIMANTS) claimIds.push(await fileClaim(APP, claimant))
    await scored(claimIds)
    await fileWithProvider(claimIds.map((id, n) => ({ id, caseNumber: caseNumberOf(n) })))
    browser = await connectBrowser()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(await staffSessionCookies())
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
  })

  let batchId = 0
  let checker: Page
  /** A page of its own, signed in as `account`, at a laptop's width. */
  const accountPage = async (account: { email: string; address: string }) => {
    const own = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await own.addCookies(await signIn(account.email, account.address))
    const opened = await own.newPage()
    opened.on('pageerror', (error) => pageErrors.push(error.message))
    return opened
  }
  const awards = () => page.getByRole('region', { name: 'Awards table' })
  const awardRow = (claimId: number) => awards().locator(`tr[data-claim-id="${claimId}"]`)

  it("opens from the dashboard with the keyboard and imports the provider's award file, naming each faulty line first", async () => {
    await page.goto(`${baseUrl()}/${APP}-admin`)
    await shown(page.getByRole('heading', { level: 1, name: 'DailyPay Admin Dashboard' }))
    await tabTo(page, `a[href="/${APP}-admin/payouts"]`)
    await page.keyboard.press('Enter')
    await page.waitForURL(`${baseUrl()}/${APP}-admin/payouts`)
    await shown(page.getByRole('heading', { level: 1, name: 'DailyPay Payouts' }))
    await shown(page.getByText('No claim has an award yet.').first())

    // a file with faults keeps nothing: each line's fault is an item of the alert, which takes the focus
    const faulty = csvFile('faulty.csv', [
      'Case Number,Claimant,Award',
      `${caseNumberOf(0)},Ikaika Payee,"1,200.00"`,
      '01-26-9999-0001,Nobody,300.00',
      `${caseNumberOf(1)},Noelani Payee,0.00`,
    ])
    const picker = await openFilePickerByKeyboard(
      page,
      'form[aria-label="Import an award file"] input[type="file"]',
    )
    await picker.setFiles(faulty)
    await tabTo(page, 'form[aria-label="Import an award file"] button[type="submit"]')
    await page.keyboard.press('Enter')
    const refused = page.getByRole('alert')
    await shown(refused.getByText('The award file was not imported:'))
    expect(await refused.getByRole('listitem').allInnerTexts()).toEqual([
      `line 3: no ${APP} claim has case number 01-26-9999-0001`,
      'line 4: the award is $0.00; leave a claim that won nothing out',
    ])
    expect(await focusedText(page)).toContain('The award file was not imported:')
    expect(queryDb('SELECT claim_id FROM claim_awards WHERE app = ?', APP)).toEqual([])

    const good = csvFile('awards.csv', [
      'Case Number,Claimant,Award',
      `${caseNumberOf(0)},Ikaika Payee,"1,200.00"`,
      `${caseNumberOf(1)},Noelani Payee,850.50`,
      `${caseNumberOf(2)},Keoni Payee,"2,000.00"`,
    ])
    const again = await openFilePickerByKeyboard(
      page,
      'form[aria-label="Import an award file"] input[type="file"]',
    )
    await again.setFiles(good)
    await tabTo(page, 'form[aria-label="Import an award file"] button[type="submit"]')
    await page.keyboard.press('Enter')
    await shown(page.getByText('3 awards imported, $4,050.50 in all.'))
    expect(await focusedText(page)).toBe('3 awards imported, $4,050.50 in all.')
    expect(await page.getByRole('alert').count()).toBe(0)
    await shown(page.getByText('3 awards, $4,050.50 in all.'))
    expect(await awardRow(claimIds[1]!).locator('td').allInnerTexts()).toEqual([
      'Noelani Payee',
      caseNumberOf(1),
      '$850.50',
      '$0.00',
      'Imported',
      '—',
    ])
    expect(await awardRow(claimIds[0]!).getByRole('link').getAttribute('href')).toBe(
      `/${APP}-admin/claims/${claimIds[0]}`,
    )
    // the newest claim first
    expect(await awards().locator('tbody th').allInnerTexts()).toEqual(
      [claimIds[2], claimIds[1], claimIds[0]].map(String),
    )
    expect(await axeViolations(page)).toEqual([])
    expect(pageErrors).toEqual([])
  }, 120_000)

  it('shares a settlement among the filed claim left, typed by keyboard alone', async () => {
    await tabTo(page, 'form[aria-label="Share a settlement"] input[type="text"]')
    await typeText(page, 'DailyPay class settlement')
    await page.keyboard.press('Tab')
    await typeText(page, '1,500')
    // the radio group: Tab reaches it, the arrow keys choose within it
    await page.keyboard.press('Tab')
    await page.keyboard.press('ArrowDown')
    expect(await page.getByRole('radio', { name: 'By cash advances' }).isChecked()).toBe(true)
    await tabTo(page, 'form[aria-label="Share a settlement"] button[type="submit"]')
    await page.keyboard.press('Enter')
    const done = 'Settlement “DailyPay class settlement”: $1,500.00 shared among 1 claim.'
    await shown(page.getByText(done))
    expect(await focusedText(page)).toBe(done)
    await shown(page.getByText('4 awards, $5,550.50 in all.'))
    expect(await awardRow(claimIds[3]!).locator('td').allInnerTexts()).toEqual([
      'Malia Payee',
      caseNumberOf(3),
      '$1,500.00',
      '$0.00',
      'Settlement share',
      'DailyPay class settlement',
    ])
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'payouts-awards-1280')
    expect(pageErrors).toEqual([])
  }, 60_000)

  it("enters one claim's award by its claim ID with the keyboard: a bad ID is refused, the same amounts change nothing", async () => {
    const form = `form[aria-label="Enter a claim's award"]`
    await tabTo(page, `${form} input[id$="-claim"]`)
    await typeText(page, 'abc')
    await page.keyboard.press('Tab')
    await typeText(page, '850.50')
    await tabTo(page, `${form} button[type="submit"]`)
    await page.keyboard.press('Enter')
    const refused = 'The award was not set: "abc" is not a claim ID.'
    await shown(page.locator(form).getByRole('alert').getByText(refused))
    expect(await focusedText(page)).toBe(refused)

    await tabTo(page, `${form} input[id$="-claim"]`)
    await page.keyboard.press('Control+A')
    await typeText(page, String(claimIds[1]))
    await tabTo(page, `${form} button[type="submit"]`)
    await page.keyboard.press('Enter')
    const unchanged = `Claim ${claimIds[1]} already has these amounts (award $850.50, costs advanced $0.00); nothing changed.`
    await shown(page.getByText(unchanged))
    expect(await focusedText(page)).toBe(unchanged)
    expect(await page.locator(form).getByRole('alert').count()).toBe(0)
    expect(await awardRow(claimIds[1]!).locator('td').allInnerTexts()).toEqual([
      'Noelani Payee',
      caseNumberOf(1),
      '$850.50',
      '$0.00',
      'Imported',
      '—',
    ])
    expect(pageErrors).toEqual([])
  }, 60_000)

  it('fits a phone screen and passes the axe scan there', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.reload()
    await shown(page.getByText('4 awards, $5,550.50 in all.'))
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'payouts-awards-390')
    await page.setViewportSize({ width: 1280, height: 900 })
    expect(pageErrors).toEqual([])
  }, 60_000)

  it('an accountant builds a payout batch with its costs, by keyboard, and may not approve their own', async () => {
    for (const person of [MAKER, CHECKER]) {
      await addStaffAccount({
        email: person.email,
        name: person.name,
        role: 'staff',
        apps: [{ app: APP, canExport: false, canPay: true }],
        password: ACCOUNTANT_PASSWORD,
      })
    }
    const bank = { routingNumber: '011000015', accountNumber: ACCOUNT_NUMBER }
    await choosePayments([
      { claimId: claimIds[0]!, method: 'ach', bank, w9: { legalName: 'Ikaika Payee', ssn: SSNS[0]! } },
      { claimId: claimIds[1]!, method: 'check', w9: { legalName: 'Noelani Payee', ssn: SSNS[1]! } },
      // no W-9: backup withholding
      { claimId: claimIds[2]!, method: 'ach', bank },
    ])
    const maker = await accountPage(MAKER)
    await maker.goto(`${baseUrl()}/${APP}-admin/payouts`)
    await shown(maker.getByRole('heading', { level: 1, name: 'DailyPay Payouts' }))
    // the payments right shows the awards, not their import
    await shown(maker.getByText('4 awards, $5,550.50 in all.'))
    expect(await maker.getByRole('form', { name: 'Import an award file' }).count()).toBe(0)
    // the settlement's share waits for its claimant's choice and consent: three claims can go in
    await shown(maker.getByText('3 claims are ready to pay: $4,050.50 gross.'))
    expect(await maker.locator('.payout-methods li').allInnerTexts()).toEqual([
      'ACH bank transfer: 2 claims, $3,200.00',
      'Paper check: 1 claim, $850.50',
    ])
    expect(
      await maker
        .getByText('1 claimant has no W-9 on file: 24% backup withholding is taken from that payment.')
        .count(),
    ).toBe(1)

    await tabTo(maker, 'form[aria-label="Build a payout batch"] input')
    await typeText(maker, '30.00')
    await tabTo(maker, 'form[aria-label="Build a payout batch"] button[type="submit"]')
    await maker.keyboard.press('Enter')
    const built = await shown(maker.getByText(/^Payout batch \d+ built: /))
    batchId = Number(/batch (\d+)/.exec(built)![1])
    // 40% from each signed agreement; $10.00 of costs each; 24% of $1,190.00 held back from Keoni
    expect(built).toBe(
      `Payout batch ${batchId} built: 3 claims, gross $4,050.50, fee $1,620.20, costs $30.00, withholding $285.60, net $2,114.70. Another person with the payments right approves it below.`,
    )
    expect(await focusedText(maker)).toContain(`Payout batch ${batchId} built`)

    const panel = maker.locator('#payout-batch-panel')
    await shown(panel.getByRole('heading', { name: `Payout batch ${batchId}` }))
    expect(await panel.getByRole('button', { name: 'Approve and send' }).isDisabled()).toBe(true)
    expect(
      await panel
        .getByText('You built this batch: another person with the payments right approves it.')
        .count(),
    ).toBe(1)
    // the server refuses the maker as well, in so many words
    const refused = await maker.request.post(`${baseUrl()}/api/staff/payout-batches/${batchId}/approve`, {
      headers: { Origin: baseUrl() },
    })
    expect(refused.status()).toBe(403)
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      SAME_ACCOUNT_MESSAGE,
    )

    const row = maker
      .getByRole('region', { name: 'Payout batches table' })
      .locator(`tr[data-payout-batch-id="${batchId}"]`)
    expect(await row.locator('td').nth(0).innerText()).toBe('Built: waiting for approval')
    expect(await row.locator('td').nth(1).innerText()).toContain(MAKER.email)
    // the numbers masked: the last four of the account and of the SSN
    const items = panel.getByRole('region', { name: `Items of payout batch ${batchId}` })
    const cells = (claimId: number) => items.locator(`tr[data-claim-id="${claimId}"] td`).allInnerTexts()
    expect((await cells(claimIds[0]!)).slice(0, 10)).toEqual([
      'Ikaika Payee',
      'ACH bank transfer',
      '••••7788',
      '••••7891',
      '$1,200.00',
      '$480.00 (40%)',
      '$10.00',
      '$0.00',
      '$710.00',
      'pending',
    ])
    expect((await cells(claimIds[2]!)).slice(3, 9)).toEqual([
      'No W-9',
      '$2,000.00',
      '$800.00 (40%)',
      '$10.00',
      '$285.60',
      '$904.40',
    ])
    const text = await maker.locator('body').innerText()
    for (const secret of [ACCOUNT_NUMBER, ...SSNS, ...SSNS.map((ssn) => ssn.replace(/-/g, ''))]) {
      expect(text).not.toContain(secret)
    }
    expect(await axeViolations(maker)).toEqual([])
    await keepScreenshot(maker, 'payouts-batch-built-1280')
    expect(pageErrors).toEqual([])
  }, 120_000)

  it('another accountant opens it and approves it by keyboard; the bank files download and the reconciliation balances', async () => {
    checker = await accountPage(CHECKER)
    await checker.goto(`${baseUrl()}/${APP}-admin/payouts`)
    await shown(checker.getByRole('heading', { level: 1, name: 'DailyPay Payouts' }))
    await tabTo(checker, `#open-payout-batch-${batchId}`)
    await checker.keyboard.press('Enter')
    const panel = checker.locator('#payout-batch-panel')
    await shown(panel.getByRole('heading', { name: `Payout batch ${batchId}` }))
    expect(await focusedText(checker)).toBe(`Payout batch ${batchId}`)
    expect(await panel.getByText('You built this batch').count()).toBe(0)
    await tabTo(checker, '#payout-batch-panel button.primary')
    expect(await focusedText(checker)).toBe('Approve and send')
    await checker.keyboard.press('Enter')
    await shown(panel.getByText(`Payout batch ${batchId} approved and sent.`), 30_000)
    expect(await focusedText(checker)).toBe(`Payout batch ${batchId} approved and sent.`)
    const row = checker
      .getByRole('region', { name: 'Payout batches table' })
      .locator(`tr[data-payout-batch-id="${batchId}"]`)
    expect(await row.locator('td').nth(0).innerText()).toBe('Sent')
    expect(await row.locator('td').nth(2).innerText()).toContain(CHECKER.email)
    const items = panel.getByRole('region', { name: `Items of payout batch ${batchId}` })
    await shown(items.locator(`tr[data-claim-id="${claimIds[1]}"] td`).getByText('Check 1001'))

    // the files for the bank, as the links download them
    const fileText = async (name: RegExp) => {
      const href = await panel.getByRole('link', { name }).getAttribute('href')
      const answer = await checker.request.get(`${baseUrl()}${href}`)
      expect(answer.status()).toBe(200)
      expect(answer.headers()['content-disposition']).toMatch(/^attachment; filename=/)
      return answer.text()
    }
    const ach = await fileText(/^ACH file \(NACHA\)/)
    const lines = ach.split(/\r?\n/).filter((line) => line !== '')
    expect(lines.every((line) => line.length === 94)).toBe(true)
    // one PPD credit a claimant paid by bank: $710.00 and $904.40, in cents
    const credits = lines.filter((line) => line.startsWith('6'))
    expect(credits.map((line) => line.slice(29, 39)).sort()).toEqual(['0000071000', '0000090440'])
    expect(await fileText(/^Check register \(CSV\)/)).toContain('1001')
    expect(await fileText(/^Positive pay file \(CSV\)/)).toContain('1001')

    const reconciliation = panel.getByRole('region', { name: `Reconciliation of payout batch ${batchId}` })
    await shown(panel.getByText('Balanced: the trust entries and the awards and items agree to the cent.'))
    expect(await reconciliation.locator('tbody td:last-child').allInnerTexts()).toEqual(
      Array.from({ length: 7 }, () => '$0.00, balanced'),
    )
    expect(await reconciliation.locator('tr[data-figure="netPaidCents"] td').first().innerText()).toBe(
      '$2,114.70',
    )
    expect(await axeViolations(checker)).toEqual([])
    await keepScreenshot(checker, 'payouts-batch-sent-1280')
    expect(pageErrors).toEqual([])
  }, 120_000)

  it('shows the sent batch tidily on a phone, with no axe violations', async () => {
    await checker.setViewportSize({ width: 390, height: 844 })
    await checker.reload()
    // the page's forms, the awards and the batches come first: tabbed through as a keyboard user would
    await shown(checker.locator(`#open-payout-batch-${batchId}`))
    await tabTo(checker, `#open-payout-batch-${batchId}`, { maxTabs: 120 })
    await checker.keyboard.press('Enter')
    await shown(checker.getByText('Balanced: the trust entries and the awards and items agree to the cent.'))
    const overflow = await checker.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    expect(await axeViolations(checker)).toEqual([])
    await keepScreenshot(checker, 'payouts-batch-390')
    expect(pageErrors).toEqual([])
  }, 60_000)
  it("reports the check not cashed after 90 days with its payee masked, reached by the page's own links", async () => {
    // the check went out 95 days ago, as the send job dates a check it sends
    const sentAt = Date.now() - 95 * DAY_MS
    await withDb((db) =>
      db
        .updateTable('payout_items')
        .set({ updated_at: sentAt })
        .where('claim_id', '=', claimIds[1]!)
        .where('method', '=', 'check')
        .execute(),
    )
    await checker.setViewportSize({ width: 1280, height: 900 })
    await checker.reload()
    await shown(checker.getByRole('heading', { level: 1, name: 'DailyPay Payouts' }))
    const parts = checker.getByRole('navigation', { name: 'On this page' })
    expect(await parts.getByRole('link').allInnerTexts()).toEqual([
      'Awards',
      'Payout batches',
      'Checks not cashed',
    ])
    await tabTo(checker, 'nav[aria-label="On this page"] a[href="#payouts-uncashed"]')
    await checker.keyboard.press('Enter')
    expect(await focusedText(checker)).toBe('Checks not cashed')
    await shown(checker.getByText('1 check sent more than 90 days ago is not cashed: $500.30.'))
    const table = checker.getByRole('region', { name: 'Checks not cashed table' })
    // $850.50 less the 40% fee and $10.00 of the costs; Noelani Payee's W-9 names the payee
    expect(
      await table.locator(`tr[data-claim-id="${claimIds[1]}"]`).locator('th, td').allInnerTexts(),
    ).toEqual([String(claimIds[1]), 'N•••• P••••', '1001', '$500.30', firmDate(sentAt), '95'])
    expect(await table.locator('tbody tr').count()).toBe(1)
    expect(await table.innerText()).not.toContain('Noelani')
    expect(await axeViolations(checker)).toEqual([])
    await keepScreenshot(checker, 'payouts-uncashed-1280')

    await checker.setViewportSize({ width: 390, height: 844 })
    await checker.reload()
    await shown(checker.getByRole('heading', { level: 1, name: 'DailyPay Payouts' }))
    await tabTo(checker, 'nav[aria-label="On this page"] a[href="#payouts-uncashed"]')
    await checker.keyboard.press('Enter')
    expect(await focusedText(checker)).toBe('Checks not cashed')
    const overflow = await checker.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    expect(await axeViolations(checker)).toEqual([])
    await keepScreenshot(checker, 'payouts-uncashed-390')
    expect(pageErrors).toEqual([])
  }, 60_000)

  it("pages through a batch's items a hundred at a time, the focus on the line saying which", async () => {
    // a batch of 105 items written straight in, over this spec's own claims: the panel's paging is
    // what is shown here (tests/server/payouts/payout-batch-items.test.ts pages through 205)
    const big = await withDb(async (db) => {
      const maker = await db
        .selectFrom('staff_accounts')
        .select('id')
        .where('email', '=', MAKER.email)
        .executeTakeFirstOrThrow()
      const now = Date.now()
      const batch = await db
        .insertInto('payout_batches')
        .values({
          app: APP,
          status: 'sent',
          costs_cents: 0,
          built_by: Number(maker.id),
          built_at: now,
          sent_at: now,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await db
        .insertInto('payout_items')
        .values(
          Array.from({ length: 105 }, (_, n) => ({
            batch_id: Number(batch.id),
            claim_id: claimIds[n % claimIds.length]!,
            method: 'venmo' as const,
            gross_cents: 10_000 + n,
            fee_percent: '40',
            fee_cents: 4_000,
            costs_cents: 0,
            withholding_cents: 0,
            net_cents: 6_000 + n,
            status: 'paid' as const,
            updated_at: now,
          })),
        )
        .execute()
      return Number(batch.id)
    })
    await checker.setViewportSize({ width: 1280, height: 900 })
    await checker.reload()
    await tabTo(checker, `#open-payout-batch-${big}`, { maxTabs: 120 })
    await checker.keyboard.press('Enter')
    const panel = checker.locator('#payout-batch-panel')
    await shown(panel.getByText('Items 1–100 of 105'))
    const items = panel.getByRole('region', { name: `Items of payout batch ${big}` })
    expect(await items.locator('tbody tr').count()).toBe(100)
    const pages = panel.getByRole('navigation', { name: `Pages of the items of payout batch ${big}` })
    expect(await pages.innerText()).toContain('Page 1 of 2')
    await tabTo(checker, `nav[aria-label="Pages of the items of payout batch ${big}"] button:not([disabled])`)
    expect(await focusedText(checker)).toBe('Next')
    await checker.keyboard.press('Enter')
    await shown(panel.getByText('Items 101–105 of 105'))
    expect(await focusedText(checker)).toBe('Items 101–105 of 105')
    expect(await items.locator('tbody tr').count()).toBe(5)
    expect(await items.locator('tbody tr').last().locator('td').nth(8).innerText()).toBe('$61.04')
    expect(await axeViolations(checker)).toEqual([])
    await keepScreenshot(checker, 'payouts-batch-pages-1280')
    await checker.setViewportSize({ width: 390, height: 844 })
    const overflow = await checker.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    await keepScreenshot(checker, 'payouts-batch-pages-390')
    expect(pageErrors).toEqual([])
  }, 60_000)
})
