import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { tabTo, typeText } from '../keyboard.ts'
import { fileClaim } from '../seed.ts'

// albert's claims, under surnames, phones, devices and networks no other spec uses
const APP = 'albert'
const RING = Array.from({ length: 10 }, (_, i) => ({
  firstName: `Ring${String.fromCharCode(65 + i)}`,
  lastName: `Fraudring${String.fromCharCode(75 + i)}`,
  email: `fraud.ring${i}@example.com`,
  phoneDigits: `71955503${String(10 + i)}`,
}))
// three unrelated people on one shared computer (a household shares a surname and is not held): held
// too, one of them cleared by the reviewer
const SHARED_PC = [
  ['Lena', 'Quillfeather'],
  ['Omar', 'Brackenridge'],
  ['Ines', 'Vantongeren'],
].map(([firstName, lastName], i) => ({
  firstName: firstName!,
  lastName: lastName!,
  email: `library.pc${i}@example.com`,
  phoneDigits: `71955503${String(40 + i)}`,
}))
const NOTE = 'Called all three: a public library computer, each a customer.'

/** Asks until `isDone` holds, every half second for up to a minute; fails naming what it waited for. */
async function waitUntil(what: string, isDone: () => boolean): Promise<void> {
  for (const started = Date.now(); !isDone(); await new Promise((resolve) => setTimeout(resolve, 500))) {
    if (Date.now() - started > 60_000) throw new Error(`waited a minute for ${what}`)
  }
}

/** Waits until the server's score job has scored these claims as held (the ring's first ones again as it grew). */
function heldOnceScored(ids: number[], reasonText: string): Promise<void> {
  return waitUntil(
    `claims ${ids.join(', ')} held with "${reasonText}"`,
    () =>
      queryDb<{ n: number }>(
        `SELECT count(*) AS n FROM claims JOIN fraud_scores ON fraud_scores.claim_id = claims.id
         WHERE claims.id IN (${ids.map(() => '?').join(',')}) AND claims.fraud_score <= 600
           AND fraud_scores.reasons LIKE ?`,
        ...ids,
        `%${reasonText}%`,
      )[0]!.n === ids.length,
  )
}

/** Moves claims with the dashboard's bulk-move API (a reviewer took them up), and waits for its end. */
async function moveInBulk(ids: number[], to: string, cookie: string): Promise<void> {
  const started = await fetch(`${baseUrl()}/api/staff/apps/${APP}/bulk-moves`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseUrl(), Cookie: cookie },
    body: JSON.stringify({ to, ids }),
  })
  if (started.status !== 202)
    throw new Error(`the bulk move answered ${started.status}: ${await started.text()}`)
  const { id } = (await started.json()) as { id: number }
  await waitUntil(
    `bulk move ${id}`,
    () => queryDb<{ status: string }>('SELECT status FROM bulk_moves WHERE id = ?', id)[0]?.status === 'done',
  )
}

describe('a reviewer works a ring of claims held for fraud, with the keyboard', () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  const ring: number[] = []
  const sharedPc: number[] = []

  beforeAll(async () => {
    for (const [i, claimant] of RING.entries()) {
      ring.push(
        await fileClaim(APP, claimant, {
          signals: { device: 'e2e-ring-device-000001', elapsedMs: 90_000, pasted: [], typed: ['firstName'] },
          clientAddress: `198.51.${100 + i}.23`,
        }),
      )
    }
    for (const [i, claimant] of SHARED_PC.entries()) {
      sharedPc.push(
        await fileClaim(APP, claimant, {
          signals: {
            device: 'e2e-library-device-0001',
            elapsedMs: 120_000,
            pasted: [],
            typed: ['firstName'],
          },
          clientAddress: `203.0.${110 + i}.9`,
        }),
      )
    }
    await heldOnceScored(ring, 'under 9 other names')
    await heldOnceScored(sharedPc, 'under 2 other names')
    const cookies = await staffSessionCookies()
    // reviewers took the ring up: a claim goes to deficient from review
    await moveInBulk(ring, 'in_review', cookies.map(({ name, value }) => `${name}=${value}`).join('; '))
    browser = await connectBrowser()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(cookies)
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
  })

  const details = () => page.getByRole('region', { name: 'Selected Submission Details' })
  const fraudSection = () => details().getByRole('region', { name: 'Fraud score' })

  it('opens a held claim from the list, lowest score first, and reads its reasons', async () => {
    await page.goto(`${baseUrl()}/${APP}-admin?q=Fraudring&fraud=hold&order=score`)
    const table = page.getByRole('region', { name: 'All Submissions table' })
    await page.waitForFunction(() => document.querySelectorAll('.staff-table tbody tr').length === 10, null, {
      timeout: 10_000,
    })
    // the Score column marks each Hold; the order by score is the Score heading's
    expect(await table.locator('td[data-column="fraudScore"]').allInnerTexts()).toEqual(
      ring.map(() => expect.stringMatching(/^\d+ Hold$/)),
    )
    expect(await table.getByRole('columnheader', { name: 'Score' }).getAttribute('aria-sort')).toBe(
      'ascending',
    )

    // "Skip to the claims", then j opens the first claim and puts the focus in its details
    await tabTo(page, '.skip-link')
    await page.keyboard.press('Enter')
    await page.keyboard.press('j')
    await shown(fraudSection())
    const section = await shown(fraudSection())
    expect(section).toMatch(/\d+ of 1,000: Hold\./)
    expect(section).toContain(
      'Same device as other claimants (−400 points): This browser also sent claims under 9 other names.',
    )
    // the nine others, each a link that opens it here
    const device = fraudSection().getByRole('listitem').filter({ hasText: 'Same device as other claimants' })
    expect(await device.locator('.fraud-related a').count()).toBe(9)
    expect(await axeViolations(page)).toEqual([])
    await fraudSection().scrollIntoViewIfNeeded()
    await keepScreenshot(page, 'fraud-review-details-1280')
  })

  it('opens the cluster, with the device marked as shared, and moves it to deficient in one bulk move', async () => {
    await tabTo(page, '.fraud-panel a[href$="/cluster"]')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Show cluster (10 claims)')
    await page.keyboard.press('Enter')
    await page.waitForURL(/\/albert-admin\/claims\/\d+\/cluster$/)
    const cluster = page.getByRole('region', { name: 'Cluster table' })
    await page.waitForFunction(() => document.querySelectorAll('.staff-table tbody tr').length === 10, null, {
      timeout: 10_000,
    })
    expect(await shown(page.locator('.cluster-summary'))).toContain('10 claims. Shared: Device (10 claims).')
    // each other claim has the device marked
    expect(await cluster.locator('mark.shared-signal').allInnerTexts()).toEqual(
      ring.slice(1).map(() => 'Device'),
    )
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'fraud-cluster-1280')

    const panel = page.getByRole('region', { name: 'Move these claims' })
    expect(await shown(panel)).toContain('The checked claims (10).')
    await panel.getByRole('radio', { name: 'Deficient' }).focus()
    await page.keyboard.press('Space')
    // the reason by typing the start of its label, as a keyboard picks an option in a select
    await panel.getByLabel('Reason').focus()
    await typeText(page, 'We need')
    expect(await panel.getByLabel('Reason').inputValue()).toBe('account_unverified')
    await panel.getByRole('button', { name: 'Preview' }).focus()
    await page.keyboard.press('Enter')
    await shown(panel.getByText('10 claims will move from In review to Deficient.'))
    await keepScreenshot(page, 'fraud-cluster-preview-1280')
    await panel.getByRole('button', { name: 'Move', exact: true }).focus()
    await page.keyboard.press('Enter')
    await shown(panel.getByText('Done: 10 of 10 moved to Deficient.'), 30_000)
    await expect
      .poll(() => cluster.locator('td[data-label="Status"]').allInnerTexts())
      .toEqual(ring.map(() => 'Deficient'))

    const stored = queryDb<{ review_status: string; review_reason: string }>(
      `SELECT review_status, review_reason FROM claims WHERE id IN (${ring.join(',')})`,
    )
    expect(stored).toEqual(
      ring.map(() => ({ review_status: 'deficient', review_reason: 'account_unverified' })),
    )
    const audit = queryDb<{ detail: string }>(
      "SELECT detail FROM audit_log WHERE action = 'bulk_move' ORDER BY id DESC LIMIT 1",
    )
    expect(audit[0]!.detail).toMatch(/^bulk move \d+: 10 claims → deficient \(account_unverified\)$/)

    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'fraud-cluster-390')
    await page.setViewportSize({ width: 1280, height: 900 })
  })

  it('clears another held claim as "Not fraud" with a note, on record', async () => {
    const [cleared] = sharedPc as [number]
    await page.goto(`${baseUrl()}/${APP}-admin/claims/${cleared}?q=Quillfeather`)
    expect(await shown(fraudSection())).toContain('Hold.')
    await tabTo(page, '.not-fraud-form textarea')
    await typeText(page, NOTE)
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Not fraud')
    await page.keyboard.press('Enter')
    const done = fraudSection().locator('.fraud-cleared')
    expect(await shown(done)).toMatch(
      new RegExp(`^Cleared as not fraud by \\S+@\\S+ on .+, at score \\d+: “${NOTE}”$`),
    )
    expect(await page.evaluate(() => document.activeElement?.classList.contains('fraud-cleared'))).toBe(true)
    await expect
      .poll(() => page.locator(`tr[data-claim-id="${cleared}"] td[data-column="fraudScore"]`).innerText())
      .toMatch(/^\d+ Cleared$/)

    const [row] = queryDb<{ fraud_cleared_at: number | null; cleared_note: string }>(
      `SELECT claims.fraud_cleared_at, fraud_scores.cleared_note FROM claims
       JOIN fraud_scores ON fraud_scores.claim_id = claims.id WHERE claims.id = ?`,
      cleared,
    )
    expect(row!.fraud_cleared_at).not.toBeNull()
    expect(row!.cleared_note).toBe(NOTE)
    const [audit] = queryDb<{ detail: string }>(
      "SELECT detail FROM audit_log WHERE action = 'fraud_cleared' ORDER BY id DESC LIMIT 1",
    )
    expect(audit!.detail).toMatch(
      new RegExp(`^claim ${cleared}: not fraud at fraud score \\d+ \\(device_shared`),
    )
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'fraud-not-fraud-1280')
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'fraud-not-fraud-390')
    expect(pageErrors).toEqual([])
  })
})
