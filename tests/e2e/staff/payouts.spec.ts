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
import { moveClaimTo } from '../../server/support/claims.ts'
import { FORMS_DIR } from '../../server/support/helpers.ts'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { openFilePickerByKeyboard, tabTo, typeText } from '../keyboard.ts'
import { fileClaim } from '../seed.ts'

// DailyPay: no other spec files a claim with the provider, so its filed claims are this spec's own
const APP = 'dailypay'
const CLAIMANTS = ['Ikaika', 'Noelani', 'Keoni', 'Malia'].map((firstName, i) => ({
  firstName,
  lastName: 'Payee',
  email: `${firstName.toLowerCase()}.payee@example.com`,
  phoneDigits: `505555080${i}`,
}))
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
  const db = new Kysely<Tables>({
    dialect: new SqliteDialect({ database: new Database(path.join(dataDir, SQLITE_FILE_NAME)) }),
  })
  try {
    const ctx = {
      db,
      evidenceKey: loadEvidenceKey({ setting: undefined, dataDir }),
      reviews: loadReviews(FORMS_DIR, [APP]),
    }
    for (const { id, caseNumber } of claims) {
      await moveClaimTo(ctx, { id, app: APP, status: 'filed' })
      await db.updateTable('claims').set({ case_number: caseNumber }).where('id', '=', id).execute()
    }
  } finally {
    await db.destroy()
  }
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
      'Settlement share',
      'DailyPay class settlement',
    ])
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'payouts-awards-1280')
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
})
