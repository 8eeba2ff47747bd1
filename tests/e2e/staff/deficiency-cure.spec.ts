import { spawnSync } from 'node:child_process'
import crypto from 'node:crypto'
import fs from 'node:fs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { PROJECT_ROOT } from '../../../server/project-root.ts'
import { mailsTo, partOf, plainTextOf } from '../../server/support/agreement-link.ts'
import { makePng } from '../../server/support/claim-fixtures.ts'
import { axeViolations } from '../accessibility/axe.ts'
import {
  baseUrl,
  connectBrowser,
  downloadedFile,
  keepScreenshot,
  queryDb,
  shown,
  staffSessionCookies,
} from '../browser.ts'
import { fileClaim } from '../seed.ts'
import { openFilePickerByKeyboard, tabTo } from '../keyboard.ts'

// a phone and an e-mail no other spec uses
const CLAIMANT = { email: 'carmen.cure@example.com', phoneDigits: '6025550287', firstName: 'Carmen' }

/** The cure link of the newest notice to the claimant, once the server has sent it (up to 10 s). */
async function cureLink(): Promise<string> {
  for (let tries = 0; tries < 100; tries += 1) {
    for (const { eml } of mailsTo(inject('dataDir'), CLAIMANT.email).reverse()) {
      const link = /(http\S+\/cure#token=[\w-]{43})/.exec(plainTextOf(eml))?.[1]
      if (link) return link
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('no deficiency notice in the outbox')
}

describe('a deficient claim: notice, cure at 390 px, approval, and the evidence of both records', () => {
  let browser: Browser
  let staff: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  let claimId = 0
  const newScreenshot = makePng({ width: 120, height: 80 })

  beforeAll(async () => {
    claimId = await fileClaim('brigit', CLAIMANT)
    browser = await connectBrowser()
    staff = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
    await staff.addCookies(await staffSessionCookies())
    page = await staff.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
  })

  const review = () =>
    page.getByRole('region', { name: 'Selected Submission Details' }).locator('.claim-review')
  const moveTo = async (label: string, reason?: string) => {
    await review().getByRole('radio', { name: label }).check()
    if (reason) await review().getByLabel('Reason').selectOption({ label: reason })
    await review()
      .getByRole('button', { name: `Move to ${label}` })
      .click()
    await shown(review().getByText(`Status: ${label}`))
  }

  it('a reviewer marks the claim deficient, and the claimant is e-mailed what to fix', async () => {
    await page.goto(`${baseUrl()}/brigit-admin?q=${claimId}&claim=${claimId}`)
    await shown(review().getByText('Status: Received'))
    await moveTo('In review')
    await moveTo('Deficient', 'Screenshot unreadable')
    const link = await cureLink()
    expect(link.startsWith(baseUrl())).toBe(true)
    // the deadline in the firm's zone, named
    await shown(review().getByText(/Cure period open until .* 11:59 PM \(Los Angeles\)\. Notice sent\./))
  })

  it('the notice fits a 390 px phone: a button to the page, the address wrapping below it', async () => {
    const notice = mailsTo(inject('dataDir'), CLAIMANT.email)
      .reverse()
      .find(({ eml }) => /needs a correction/.test(eml))!
    const mail = await browser.newPage({ viewport: { width: 390, height: 844 } })
    await mail.setContent(partOf(notice.eml, 'text/html'))
    const button = mail.getByRole('link', { name: 'Fix my claim' })
    expect(await button.getAttribute('href')).toBe(await cureLink())
    expect(await mail.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    // no element reaches past the screen's edge, the long address included
    const widest = await mail.evaluate(() =>
      Math.max(...[...document.body.querySelectorAll('*')].map((el) => el.getBoundingClientRect().right)),
    )
    expect(widest).toBeLessThanOrEqual(390)
    await keepScreenshot(mail, 'cure-notice-390')
    await mail.close()
  })

  it('the cure page at 1280 px shows the refused screenshot and previews a new one, by keyboard alone', async () => {
    const desk = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    const claimant = await desk.newPage()
    const errors: string[] = []
    claimant.on('pageerror', (error) => errors.push(error.message))
    await claimant.goto(await cureLink())
    const refused = claimant.getByRole('img', { name: 'The screenshot we could not accept' })
    await refused.waitFor()
    expect(await refused.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0)
    await shown(claimant.getByText(/Please send it by \w+ \d+, \d{4}\./))
    const picker = await openFilePickerByKeyboard(claimant, '#cure-screenshot')
    await picker.setFiles({ name: 'clearer.png', mimeType: 'image/png', buffer: newScreenshot })
    await shown(claimant.getByRole('img', { name: 'Selected bank statement screenshot' }))
    await shown(claimant.getByText('clearer.png'))
    expect(await axeViolations(claimant)).toEqual([])
    await keepScreenshot(claimant, 'cure-page-1280')
    expect(errors).toEqual([])
    await desk.close()
  })

  it('the claimant opens the link on a phone and uploads a new screenshot', async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    })
    const claimant = await phone.newPage()
    const errors: string[] = []
    claimant.on('pageerror', (error) => errors.push(error.message))
    await claimant.goto(await cureLink())
    await shown(claimant.getByRole('heading', { name: 'Fix your claim' }))
    await shown(
      claimant.getByText('We could not read your bank statement screenshot. Please upload a clearer one.'),
    )
    await claimant.getByRole('img', { name: 'The screenshot we could not accept' }).waitFor()
    // only what the reason asks for: a screenshot, no name or signature
    expect(await claimant.getByLabel('First name').count()).toBe(0)
    expect(await claimant.locator('canvas').count()).toBe(0)
    expect(await claimant.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0)
    expect(await axeViolations(claimant)).toEqual([])
    await keepScreenshot(claimant, 'cure-page-390')

    // sent without the file: the page says what is missing, and nothing is stored
    await claimant.getByRole('button', { name: 'Send my corrections' }).click()
    await shown(
      claimant.getByRole('alert').getByText('Please upload a new bank statement screenshot (PNG or JPEG).'),
    )
    // then with the keyboard alone: Tab to the file field, Space opens the picker, Tab on and Enter sends
    const picker = await openFilePickerByKeyboard(claimant, '#cure-screenshot')
    await picker.setFiles({ name: 'clearer.png', mimeType: 'image/png', buffer: newScreenshot })
    // the file previewed, and the error about its absence gone
    await shown(claimant.getByRole('img', { name: 'Selected bank statement screenshot' }))
    await claimant.getByRole('alert').waitFor({ state: 'hidden' })
    expect(await claimant.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0)
    expect(await axeViolations(claimant)).toEqual([])
    await keepScreenshot(claimant, 'cure-picked-390')
    await tabTo(claimant, 'button[type="submit"]')
    await claimant.keyboard.press('Enter')
    await shown(
      claimant.getByText('Thank you. We received your corrections and will review your claim again.'),
    )
    await keepScreenshot(claimant, 'cure-done-390')

    // the link is used: a clear page with the firm's contact
    await claimant.goto(await cureLink())
    await claimant.reload()
    await shown(claimant.getByRole('alert').getByText('Your corrections were already received. Thank you.'))
    expect(await shown(claimant.locator('.cure-contact'))).toMatch(/Questions\? Write to us at \S+@\S+\./)
    expect(errors).toEqual([])
    await phone.close()
  })

  it('the reviewer sees the claim cured with the new screenshot, and approves it', async () => {
    await page.goto(`${baseUrl()}/brigit-admin?q=${claimId}&claim=${claimId}`)
    await shown(review().getByText('Status: Cured'))
    // the period the claimant had, and when they cured it, each in the firm's zone
    await shown(
      review().getByText(
        /Cure period .+ \(Los Angeles\) to .+ 11:59 PM \(Los Angeles\); the claimant sent corrections on .+ \(Los Angeles\)\./,
      ),
    )
    // what the claimant signed, beside the review: the signature, the time, the address and browser
    const signed = await shown(page.locator('.signed-record dl'))
    expect(signed).toMatch(/IP address\s+127\.0\.0\.1/)
    expect(await page.locator('.signed-record img').getAttribute('src')).toMatch(/^data:image\/png;base64,/)
    const [agreement] = await Promise.all([
      page.waitForEvent('popup'),
      page.getByRole('link', { name: 'Open the agreement as signed' }).click(),
    ])
    expect(await shown(agreement.locator('body'))).toContain('Carmen')
    await agreement.close()
    const sent = await shown(review().locator('.amendments'))
    expect(sent).toMatch(/amendment \d+, for Screenshot unreadable/)
    expect(await review().getByRole('link', { name: 'View the new screenshot' }).count()).toBe(1)
    expect(await shown(review().locator('.review-history'))).toContain('Deficient → Cured, by the claimant')
    // the moves' keys: 1 chooses the first move open (In review, then Approved), Enter makes it
    await page.locator('body').focus()
    await page.keyboard.press('1')
    expect(await review().getByRole('radio', { name: 'In review' }).isChecked()).toBe(true)
    await page.keyboard.press('Enter')
    await shown(review().getByText('Status: In review'))
    await page.keyboard.press('1')
    expect(await review().getByRole('radio', { name: 'Approved' }).isChecked()).toBe(true)
    await page.keyboard.press('Enter')
    await shown(review().getByText('Status: Approved'))
    // the list follows the move without a reload
    await shown(
      page.getByRole('row', { name: new RegExp(CLAIMANT.email) }).getByRole('cell', { name: 'Approved' }),
    )
    await keepScreenshot(page, 'cure-approved-1280')
    expect(pageErrors).toEqual([])
  })

  it('the evidence bundle holds the claim and its amendment, and verify-evidence passes', async () => {
    const panel = page.getByRole('region', { name: 'Selected Submission Details' })
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Download evidence' }).click(),
    ])
    const bytes = fs.readFileSync(await downloadedFile(download))
    const [amendment] = queryDb<{ id: number; amends_kind: string; screenshot_sha256: string }>(
      'SELECT id, amends_kind, screenshot_sha256 FROM claim_amendments WHERE claim_id = ?',
      claimId,
    )
    expect(amendment).toMatchObject({
      amends_kind: 'claim',
      screenshot_sha256: crypto.createHash('sha256').update(newScreenshot).digest('hex'),
    })
    for (const name of [
      'record.json',
      `amendment-${amendment!.id}.json`,
      `amendment-${amendment!.id}-screenshot.png`,
    ]) {
      expect(bytes.includes(Buffer.from(name))).toBe(true)
    }

    // the operator's command, as in a dispute, on the server's own data folder
    const result = spawnSync(
      process.execPath,
      ['--import', 'tsx', 'scripts/verify-evidence.ts', '--claim', String(claimId)],
      {
        cwd: PROJECT_ROOT,
        env: { ...process.env, DATA_DIR: inject('dataDir'), DATABASE_URL: '' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    )
    expect(result.stdout).toMatch(/1 claims, 1 amendments, .*all verify/)
    expect(result.status).toBe(0)
  })

  it('the audit log names each step and links to the claim', async () => {
    await page.goto(`${baseUrl()}/staff/audit`)
    const table = await shown(page.getByRole('region', { name: 'Audit log table' }))
    // its times in the firm's zone, named
    await shown(page.getByRole('columnheader', { name: 'Time (Los Angeles)' }))
    for (const action of ['Sent a deficiency notice', 'Opened a cure link', 'Sent corrections to a claim']) {
      expect(table).toContain(action)
    }
    await page
      .getByRole('link', { name: `claim ${claimId}` })
      .first()
      .click()
    await shown(review().getByText('Status: Approved'))
    // the open claim has its own address, which a colleague can open as it is
    expect(new URL(page.url()).pathname).toBe(`/brigit-admin/claims/${claimId}`)
    const colleague = await staff.newPage()
    const response = await colleague.goto(`${baseUrl()}/brigit-admin/claims/${claimId}`)
    expect(response?.status()).toBe(200)
    await shown(
      colleague
        .getByRole('region', { name: 'Selected Submission Details' })
        .locator('.claim-review')
        .getByText('Status: Approved'),
    )
    await colleague.getByRole('button', { name: 'Close' }).click()
    expect(new URL(colleague.url()).pathname).toBe('/brigit-admin')
    await colleague.close()
  })
})
