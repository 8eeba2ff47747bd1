import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest'
import { SQLITE_FILE_NAME } from '../../../server/db/create-db.ts'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import type { BatchClaim } from '../../../src/api/filing-batches.ts'
import { FIRM_SETTINGS } from '../../../src/firm-settings.ts'
import { bankScreenshot, encodePngImage } from '../../server/support/bank-screenshots.ts'
import { unzip } from '../../server/support/unzip.ts'
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
import { tabTo } from '../keyboard.ts'
import { fileClaim } from '../seed.ts'

// earnin claimants with phones and e-mails no other spec uses, each with a main-form intake (the address);
// each on a phone of their own with a screenshot of their own, so the fraud hold has nothing against them
const APP = 'earnin'
const CLAIMANTS = ['Kaimana', 'Leilani', 'Makoa'].map((firstName, i) => ({
  firstName,
  lastName: 'Batchfiler',
  email: `${firstName.toLowerCase()}.batchfiler@example.com`,
  phoneDigits: `808555071${i}`,
  phone: `(808) 555-071${i}`,
  address: `${20 + i} Batchfiler Lane`,
}))
// an earnin claimant with no main-form intake: the claim has no address, so it stays out of every batch
const ADDRESSLESS = {
  firstName: 'Nalu',
  lastName: 'Batchfiler',
  email: 'nalu.batchfiler@example.com',
  phoneDigits: '8085550719',
  phone: '(808) 555-0719',
}
const DAY_MS = 24 * 60 * 60 * 1000
const BUILD_MS = 90_000

/** The n-th claimant's own phone: a browser id and a bank screenshot of their own. */
function ownPhone(n: number) {
  return {
    screenshot: encodePngImage(bankScreenshot({ seed: 700 + n, width: 540, height: 1170 })),
    signals: { device: `e2e-batchfiler-device-000${n}`, elapsedMs: 90_000, pasted: [], typed: ['firstName'] },
  }
}

/** Waits until the server's fraud scoring has scored each claim: a batch takes a claim once it is scored. */
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

/** The day it is in the firm's time zone, `daysBack` days ago (YYYY-MM-DD), as the server dates notices. */
function firmDay(daysBack = 0): string {
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone: FIRM_SETTINGS.timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date())
  return new Date(Date.parse(`${today}T00:00:00Z`) - daysBack * DAY_MS).toISOString().slice(0, 10)
}

/** "January 27, 2027", as the page spells a day. */
function longDay(day: string): string {
  return new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  )
}

/** A staff request with the spec's session, from the site itself (state-changing ones need the Origin). */
async function staffFetch(url: string, init: { method?: string; body?: unknown } = {}): Promise<Response> {
  const cookie = (await staffSessionCookies()).map(({ name, value }) => `${name}=${value}`).join('; ')
  return fetch(`${baseUrl()}${url}`, {
    method: init.method ?? 'GET',
    headers: { Cookie: cookie, Origin: baseUrl(), 'Content-Type': 'application/json' },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  })
}

/** A claim moved through the review to approved, as a reviewer would. */
async function approve(claimId: number): Promise<void> {
  for (const to of ['in_review', 'approved']) {
    const review = await staffFetch(`/api/staff/claims/${claimId}/review`)
    const { version } = (await review.json()) as { version: number }
    const moved = await staffFetch(`/api/staff/claims/${claimId}/moves`, {
      method: 'POST',
      body: { to, version },
    })
    if (moved.status !== 200) throw new Error(`the move to ${to} answered ${moved.status}`)
  }
}

/** Presses Tab until the focused element's text is `text`: the buttons here are told apart by their words. */
async function tabToText(page: Page, text: string): Promise<void> {
  for (let presses = 0; presses < 60; presses++) {
    if (await page.evaluate((wanted) => document.activeElement?.textContent?.trim() === wanted, text)) return
    await page.keyboard.press('Tab')
  }
  throw new Error(`Tab never reached "${text}"`)
}

describe('notices of dispute and a filing batch, from approved claims to case numbers', () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  const claimIds: number[] = []
  let noticeBatch = 0
  let noticeCount = 0
  let filingBatch = 0
  let rows: BatchClaim[] = []
  let addresslessId = 0

  beforeAll(async () => {
    for (const claimant of CLAIMANTS) {
      const intake = await fetch(`${baseUrl()}/api/intake`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(await proofOfWorkHeaders()) },
        body: JSON.stringify(
          intakeBody({
            firstName: claimant.firstName,
            lastName: claimant.lastName,
            email: claimant.email,
            phone: claimant.phone,
            address: claimant.address,
            cashAdvanceApps: [APP],
          }),
        ),
      })
      expect(intake.status).toBe(201)
      // through the intake's Step 2 link, as from its e-mail: the intake's address is the claim's
      const { steps } = (await intake.json()) as CreatedIntake
      const id = await fileClaim(APP, claimant, {
        journeyToken: steps[0]!.path.split('#prefill=')[1]!,
        ...ownPhone(claimIds.length),
      })
      await approve(id)
      claimIds.push(id)
    }
    addresslessId = await fileClaim(APP, ADDRESSLESS, ownPhone(CLAIMANTS.length))
    await approve(addresslessId)
    await scored([...claimIds, addresslessId])
    browser = await connectBrowser()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(await staffSessionCookies())
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
  })

  const section = (name: string) => page.getByRole('region', { name })
  const batchRow = (id: number) =>
    page.getByRole('region', { name: 'Batches table' }).locator(`tr[data-batch-id="${id}"]`)
  // one line a batch in its step, as it stands now: "being built" becomes "ready" in place
  const startedBatch = async (kind: 'Notice' | 'Filing', name: string) => {
    const started = await shown(
      section(name)
        .getByRole('status')
        .getByText(new RegExp(`^${kind} batch \\d+ (is being built|is ready)`)),
    )
    const id = Number(/batch (\d+)/.exec(started)![1])
    const [stored] = queryDb<{ count: number }>(
      'SELECT claim_count AS count FROM filing_batches WHERE id = ?',
      id,
    )
    return { id, count: Number(stored!.count) }
  }
  const untilReady = async (id: number) => {
    await batchRow(id)
      .locator('td.batch-status', { hasText: /^Ready$/ })
      .waitFor({ timeout: BUILD_MS })
  }

  it('opens from the dashboard with the keyboard, builds a notice batch and marks it sent by certified mail', async () => {
    await page.goto(`${baseUrl()}/${APP}-admin`)
    await shown(page.getByRole('heading', { level: 1, name: 'Earnin Admin Dashboard' }))
    await tabTo(page, `a[href="/${APP}-admin/batches"]`)
    await page.keyboard.press('Enter')
    await page.waitForURL(`${baseUrl()}/${APP}-admin/batches`)
    await shown(page.getByRole('heading', { level: 1, name: 'Earnin Notices and Filing' }))
    expect(await page.getByRole('link', { name: 'Back to the Earnin dashboard' }).count()).toBe(1)
    expect(await page.getByRole('link', { name: 'Filing settings' }).getAttribute('href')).toBe(
      `/${APP}-admin/filing`,
    )
    // the four steps in order, each with its state
    expect(await page.locator('.batch-steps-list > li h2').allInnerTexts()).toEqual([
      '1. Build a notice batch',
      '2. Mark it sent',
      '3. Build a filing batch',
      '4. Import case numbers',
    ])
    const ready = await shown(
      section('1. Build a notice batch').getByText(/^To do [\d,]+ approved claims? can get a notice\.$/),
    )
    expect(Number(/([\d,]+)/.exec(ready)![1]!.replace(/,/g, ''))).toBeGreaterThanOrEqual(CLAIMANTS.length)
    // what a claim lacks is one line a claim, naming the claimant, linked to the claim's review
    const lacking = section('1. Build a notice batch')
      .getByRole('listitem')
      .filter({ hasText: `claim ${addresslessId} (Nalu Batchfiler)` })
    expect(await shown(lacking)).toBe(
      `claim ${addresslessId} (Nalu Batchfiler): no street address, no city, no state, no ZIP code`,
    )
    expect(await lacking.getByRole('link').getAttribute('href')).toBe(`/${APP}-admin/claims/${addresslessId}`)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'filing-batches-candidates-1280')

    await tabToText(page, 'Build a notice batch')
    await page.keyboard.press('Enter')
    ;({ id: noticeBatch, count: noticeCount } = await startedBatch('Notice', '1. Build a notice batch'))
    expect(await batchRow(noticeBatch).getByRole('rowheader').innerText()).toBe(`Notice batch ${noticeBatch}`)
    await untilReady(noticeBatch)
    const notices = section('1. Build a notice batch').getByRole('status')
    await shown(notices.getByText(`Notice batch ${noticeBatch} is ready.`))
    expect(await notices.getByText(`Notice batch ${noticeBatch} is being built`).count()).toBe(0)
    await shown(section('2. Mark it sent').getByText(/^To do Mail or e-mail notice batch \d+/))
    expect(await batchRow(noticeBatch).locator('td').nth(1).innerText()).toBe(String(noticeCount))
    const members = queryDb<{ claim_id: number }>(
      'SELECT claim_id FROM filing_batch_claims WHERE batch_id = ?',
      noticeBatch,
    ).map((row) => row.claim_id)
    expect(members).toEqual(expect.arrayContaining(claimIds))
    expect(
      await batchRow(noticeBatch)
        .getByRole('link', { name: /^Download ZIP/ })
        .getAttribute('href'),
    ).toBe(`/api/staff/apps/${APP}/batches/${noticeBatch}/download`)

    // the form, by keyboard: today is filled in, certified mail chosen; the number is typed
    const form = `form[aria-label="Mark notice batch ${noticeBatch} sent"]`
    expect(await page.locator(`${form} input[type="date"]`).inputValue()).toBe(firmDay())
    expect(await section('2. Mark it sent').getByLabel('How').inputValue()).toBe('certified_mail')
    await tabTo(page, `${form} input[type="text"]`)
    await page.keyboard.type('9407 1112 0620 1234 5678 90')
    await tabTo(page, `${form} button[type="submit"]`)
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      `Mark notice batch ${noticeBatch} sent`,
    )
    await page.keyboard.press('Enter')
    await shown(
      batchRow(noticeBatch).getByText(
        `Sent on ${longDay(firmDay())} by certified mail (9407 1112 0620 1234 5678 90); may file from ${longDay(firmDay(-60))}`,
      ),
    )
    expect(await batchRow(noticeBatch).locator('td.batch-status').innerText()).toBe(
      `Sent on ${longDay(firmDay())}`,
    )
    await shown(section('2. Mark it sent').getByText(/^Done Notice batch \d+ was sent on /))
    // each claimant's own certified mail number, by the post office's CSV: a faulty file keeps nothing
    const step2 = section('2. Mark it sent')
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-certified-mail-'))
    const faulty = path.join(folder, 'faulty.csv')
    fs.writeFileSync(
      faulty,
      `Claim ID,Tracking Number\r\n999999,9400 0000 0000 0000 0001\r\n${claimIds[0]},\r\n`,
    )
    await step2
      .getByLabel(`Certified mail CSV (Claim ID, Tracking Number) for notice batch ${noticeBatch}`)
      .setInputFiles(faulty)
    await step2.getByRole('button', { name: 'Import certified mail numbers' }).click()
    const refused = step2.getByRole('alert')
    await shown(refused.getByText('The certified-mail file was not imported:'))
    expect(await refused.getByRole('listitem').allInnerTexts()).toEqual([
      'line 2: claim 999999 is not in this batch',
      'line 3: no tracking number',
    ])
    const numbers = path.join(folder, 'numbers.csv')
    const numberOf = (id: number) => `9400 1111 0000 0000 ${String(id).padStart(4, '0')}`
    fs.writeFileSync(
      numbers,
      ['Claim ID,Tracking Number', ...claimIds.map((id) => `${id},${numberOf(id)}`)].join('\r\n'),
    )
    await step2
      .getByLabel(`Certified mail CSV (Claim ID, Tracking Number) for notice batch ${noticeBatch}`)
      .setInputFiles(numbers)
    await step2.getByRole('button', { name: 'Import certified mail numbers' }).click()
    await shown(step2.getByText(`${claimIds.length} certified mail numbers imported.`))
    expect(await step2.getByRole('alert').count()).toBe(0)
    const review = await staffFetch(`/api/staff/claims/${claimIds[0]}/review`)
    expect(((await review.json()) as { filing: { noticeTracking: string } }).filing.noticeTracking).toBe(
      numberOf(claimIds[0]!),
    )
    // the claims wait out their 60 days: the filing step says why none can be filed, and from when
    await shown(
      section('3. Build a filing batch').getByText(
        new RegExp(
          `^Waiting 0 approved claims can be filed now\\. [\\d,]+ claims? (is|are) in the waiting period after its notice; the first may be filed on ${longDay(firmDay(-60))}`,
        ),
      ),
    )
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'filing-batches-notice-sent-1280')
    expect(pageErrors).toEqual([])
  }, 180_000)

  it('past the waiting period, builds a filing batch whose ZIP holds the manifest, the spreadsheet and a demand a claimant', async () => {
    // 61 days pass: the notice batch was built and sent then
    const db = new Database(path.join(inject('dataDir'), SQLITE_FILE_NAME))
    try {
      db.pragma('busy_timeout = 5000')
      db.prepare('UPDATE filing_batches SET created_at = ?, sent_on = ? WHERE id = ?').run(
        Date.now() - 61 * DAY_MS,
        firmDay(61),
        noticeBatch,
      )
    } finally {
      db.close()
    }
    await page.reload()
    await shown(
      section('3. Build a filing batch').getByText(
        `To do ${noticeCount} approved claim${noticeCount === 1 ? '' : 's'} can be filed.`,
      ),
    )
    await section('3. Build a filing batch').getByRole('button', { name: 'Build a filing batch' }).click()
    ;({ id: filingBatch } = await startedBatch('Filing', '3. Build a filing batch'))
    await untilReady(filingBatch)
    const row = batchRow(filingBatch)
    expect(await row.getByRole('rowheader').innerText()).toBe(`Filing batch ${filingBatch}`)
    expect(await row.getByText(`Case numbers: 0 of ${noticeCount}`).count()).toBe(1)
    expect(
      await shown(row.getByText(/^Estimated fees: claimant \$[\d,]+\.\d\d, respondent \$[\d,]+\.\d\d/)),
    ).toBeTruthy()
    expect(await row.locator('code.batch-hash').innerText()).toMatch(/^[0-9a-f]{64}$/)
    expect(await row.getByRole('link', { name: /^Evidence bundles \(ZIP\)/ }).getAttribute('href')).toBe(
      `/api/staff/apps/${APP}/batches/${filingBatch}/evidence`,
    )

    const claims = await page.request.get(`${baseUrl()}/api/staff/apps/${APP}/batches/${filingBatch}/claims`)
    rows = (await claims.json()) as BatchClaim[]
    expect(rows.map((claim) => claim.claimId)).toEqual(expect.arrayContaining(claimIds))
    const href = await row.getByRole('link', { name: /^Download ZIP/ }).getAttribute('href')
    const zip = await page.request.get(`${baseUrl()}${href}`)
    expect(zip.status()).toBe(200)
    expect(zip.headers()['content-type']).toBe('application/zip')
    expect(zip.headers()['content-disposition']).toMatch(/^attachment; filename=/)
    const names = await unzip(await zip.body(), fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-filing-batch-')))
    expect(names).toEqual(expect.arrayContaining(['manifest.json', 'spreadsheet.csv', 'spreadsheet.xlsx']))
    expect(names.filter((name) => name.startsWith('demands/')).sort()).toEqual(
      rows.map((claim) => `demands/${claim.rowId}.pdf`).sort(),
    )
    await keepScreenshot(page, 'filing-batches-filing-ready-1280')
    expect(pageErrors).toEqual([])
  }, 180_000)

  it('imports the case numbers from the provider’s CSV, naming each faulty line first, and the claim shows its own', async () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-case-numbers-'))
    const faulty = path.join(folder, 'faulty.csv')
    fs.writeFileSync(faulty, `Row ID,Case Number\r\nB999999-00001,01-26-0000-0001\r\n${rows[0]!.rowId},\r\n`)
    const row = batchRow(filingBatch)
    const step = section('4. Import case numbers')
    await shown(step.getByText(`To do Filing batch ${filingBatch} has 0 of ${rows.length} case numbers.`))
    await step.getByLabel("Provider's case-number CSV").setInputFiles(faulty)
    await step.getByRole('button', { name: 'Import case numbers' }).click()
    const alert = step.getByRole('alert')
    await shown(alert.getByText('The case-number file was not imported:'))
    expect(await alert.getByRole('listitem').allInnerTexts()).toEqual([
      'line 2: row ID B999999-00001 is not in this batch',
      'line 3: no case number',
    ])

    const caseOf = (rowId: string) => `01-26-${String(filingBatch).padStart(4, '0')}-${rowId.slice(-4)}`
    const good = path.join(folder, 'case-numbers.csv')
    fs.writeFileSync(
      good,
      [
        'Unique Claimant ID,Case Number',
        ...rows.map((claim) => `${claim.rowId},${caseOf(claim.rowId!)}`),
      ].join('\r\n'),
    )
    await step.getByLabel("Provider's case-number CSV").setInputFiles(good)
    await step.getByRole('button', { name: 'Import case numbers' }).click()
    await shown(step.getByText('Done Every filing batch has its case numbers.'))
    await shown(row.getByText(`Case numbers: ${rows.length} of ${rows.length}`))
    expect(await row.locator('td.batch-status').innerText()).toBe('Case numbers in')
    expect(await step.getByRole('alert').count()).toBe(0)
    await keepScreenshot(page, 'filing-batches-1280')

    // the batch's claims on the dashboard, by its number
    await row.getByRole('link', { name: /^Show this batch's claims on the dashboard/ }).click()
    // the dashboard may keep its filters in the address
    await page.waitForURL((url) => url.pathname === `/${APP}-admin`)
    expect(await page.getByLabel('Batch', { exact: true }).inputValue()).toBe(String(filingBatch))
    await page.waitForFunction(
      (count) => document.querySelectorAll('.staff-table tbody tr[data-claim-id]').length === count,
      rows.length,
      { timeout: 10_000 },
    )

    const mine = rows.find((claim) => claim.claimId === claimIds[0])!
    await page.goto(`${baseUrl()}/${APP}-admin/claims/${mine.claimId}`)
    const review = page.locator('.claim-review')
    await shown(review.getByText(`Case number: ${caseOf(mine.rowId!)}`))
    expect(await review.getByText(`Filed in batch ${filingBatch} as ${mine.rowId}`).count()).toBe(1)
    expect(
      await review
        .getByText(
          `Notice sent on ${longDay(firmDay(61))}, may file from ${longDay(firmDay(1))}, ` +
            `certified mail 9400 1111 0000 0000 ${String(mine.claimId).padStart(4, '0')}`,
        )
        .count(),
    ).toBe(1)
    await keepScreenshot(page, 'filing-batches-claim-1280')
    expect(pageErrors).toEqual([])
  }, 120_000)

  it('fits a phone screen and passes the axe scan there', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${baseUrl()}/${APP}-admin/batches`)
    await shown(batchRow(filingBatch).getByText(/^Case numbers:/))
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'filing-batches-390')
    expect(pageErrors).toEqual([])
  })
})
