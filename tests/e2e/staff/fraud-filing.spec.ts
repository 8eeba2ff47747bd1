import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { bankScreenshot, encodePngImage } from '../../server/support/bank-screenshots.ts'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { openFilePickerByKeyboard, tabTo } from '../keyboard.ts'
import { fileClaim } from '../seed.ts'

// empower's claims are this spec's alone: a ring of ten names on one browser, and three claimants the
// company's list names, each on a phone of their own
const APP = 'empower'
const RING = Array.from({ length: 10 }, (_, i) => ({
  firstName: `Ringo${String.fromCharCode(65 + i)}`,
  lastName: `Empowerring${String.fromCharCode(75 + i)}`,
  email: `ringo${i}.empowerring@example.com`,
  phoneDigits: `6027330${String(i).padStart(3, '0')}`,
}))
const LISTED = ['Kalani', 'Lokelani', 'Mahina'].map((firstName, i) => ({
  firstName,
  lastName: 'Companylisted',
  email: `${firstName.toLowerCase()}.companylisted@example.com`,
  phoneDigits: `60273401${i}0`,
  phone: `(602) 734-01${i}0`,
}))
const FORM = `form[aria-label="Import the company's list"]`

/** A claimant's phone: a screenshot of their own, and the browser id `device` (the ring shares one). */
function phoneOf(seed: number, device: string) {
  return {
    screenshot: encodePngImage(bankScreenshot({ seed, width: 540, height: 1170 })),
    signals: { device, elapsedMs: 90_000, pasted: [], typed: ['firstName'] },
  }
}

/** A staff request with the spec's session, from the site itself. */
async function staffFetch(url: string, body?: unknown): Promise<Response> {
  const cookie = (await staffSessionCookies()).map(({ name, value }) => `${name}=${value}`).join('; ')
  return fetch(`${baseUrl()}${url}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { Cookie: cookie, Origin: baseUrl(), 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
}

/** A claim moved through the review, as a reviewer would, to each status in turn. */
async function moveThrough(claimId: number, statuses: string[]): Promise<void> {
  for (const to of statuses) {
    const { version } = (await (await staffFetch(`/api/staff/claims/${claimId}/review`)).json()) as {
      version: number
    }
    const moved = await staffFetch(`/api/staff/claims/${claimId}/moves`, { to, version })
    if (moved.status !== 200) throw new Error(`the move to ${to} answered ${moved.status}`)
  }
}

describe("the fraud hold and the company's list on the filing page", () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  const ring: number[] = []
  const listed: number[] = []

  beforeAll(async () => {
    for (const [i, claimant] of RING.entries()) {
      const id = await fileClaim(APP, claimant, phoneOf(800 + i, 'e2e-empower-ring-device-0001'))
      await moveThrough(id, ['approved'])
      ring.push(id)
    }
    for (const [i, claimant] of LISTED.entries()) {
      const id = await fileClaim(APP, claimant, phoneOf(820 + i, `e2e-companylisted-device-000${i}`))
      await moveThrough(id, ['in_review'])
      listed.push(id)
    }
    // the server scores each claim after it is stored, and the ring's earlier claims again as it grows
    await vi.waitFor(
      () => {
        const [held] = queryDb<{ count: number }>(
          `SELECT count(*) AS count FROM claims WHERE id IN (${ring.map(() => '?').join(',')}) AND fraud_score <= 600`,
          ...ring,
        )
        if (held!.count !== ring.length) throw new Error(`${held!.count} of the ring held so far`)
      },
      { timeout: 90_000, interval: 1_000 },
    )
    browser = await connectBrowser()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(await staffSessionCookies())
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
  }, 180_000)
  afterAll(async () => {
    await browser?.close()
  })

  const step1 = () => page.getByRole('region', { name: '1. Build a notice batch' })
  const listSection = () => page.getByRole('region', { name: "The company's list" })

  it('says how many approved claims the fraud hold keeps out, and links to them on the dashboard', async () => {
    await page.goto(`${baseUrl()}/${APP}-admin/batches`)
    await shown(page.getByRole('heading', { level: 1, name: 'Empower Notices and Filing' }))
    expect(await shown(step1().getByText(/held for fraud review/))).toBe(
      '10 approved claims are held for fraud review, not cleared by a reviewer: the batch leaves them out. Review the held claims on the dashboard',
    )
    expect(await shown(step1().getByText(/^Waiting /))).toBe(
      'Waiting 0 approved claims can get a notice now. 10 approved claims are kept out by the fraud hold (below).',
    )
    const link = `a[href="/${APP}-admin?fraud=hold"]`
    await tabTo(page, `.batch-steps-list ${link}`)
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Review the held claims on the dashboard',
    )
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'fraud-filing-held-1280')
    await page.keyboard.press('Enter')
    await page.waitForURL(`${baseUrl()}/${APP}-admin?fraud=hold`)
    expect(pageErrors).toEqual([])
  })

  it("imports the company's list with the keyboard, lists the lines it did not match, and asks the matched claims to prove their account", async () => {
    await page.goto(`${baseUrl()}/${APP}-admin/batches`)
    await shown(listSection().getByRole('heading', { name: "The company's list" }))
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-company-list-'))
    const faulty = path.join(folder, 'faulty.csv')
    fs.writeFileSync(faulty, 'E-mail,Phone\r\nnot an e-mail,\r\n,12\r\n')
    const good = path.join(folder, 'list.csv')
    fs.writeFileSync(
      good,
      [
        'E-mail,Phone,Claim ID',
        `${LISTED[0]!.email},,`,
        `,${LISTED[1]!.phone},`,
        `,,${listed[2]}`,
        'never.filed@example.com,,',
      ].join('\r\n'),
    )

    // a faulty file first: nothing is kept, each line named
    await tabTo(page, `${FORM} input[type="radio"][value="not_customer"]`)
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).checked)).toBe(true)
    await (await openFilePickerByKeyboard(page, `${FORM} input[type="file"]`)).setFiles(faulty)
    await tabTo(page, `${FORM} button[type="submit"]`)
    await page.keyboard.press('Enter')
    const refused = listSection().getByRole('alert')
    await shown(refused.getByText('The company list file was not imported:'))
    expect(await refused.getByRole('listitem').allInnerTexts()).toEqual([
      'line 2: "not an e-mail" is not an e-mail address',
      'line 3: "12" is not a US phone number of 10 digits',
    ])
    expect(queryDb('SELECT claim_id FROM respondent_flags WHERE claim_id IN (?, ?, ?)', ...listed)).toEqual(
      [],
    )

    await (await openFilePickerByKeyboard(page, `${FORM} input[type="file"]`)).setFiles(good)
    await tabTo(page, `${FORM} button[type="submit"]`)
    await page.keyboard.press('Enter')
    await shown(
      listSection().getByText('3 claims matched of 4 lines, each flagged "Not a customer" and scored again.'),
    )
    await shown(listSection().getByText('1 line names no claim of this app:'))
    expect(await listSection().locator('.batch-lacking li').allInnerTexts()).toEqual([
      'line 5: never.filed@example.com',
    ])
    expect(await listSection().getByRole('alert').count()).toBe(0)
    expect(
      queryDb<{ claim_id: number; list: string }>(
        'SELECT claim_id, list FROM respondent_flags WHERE claim_id IN (?, ?, ?) ORDER BY claim_id',
        ...listed,
      ),
    ).toEqual(listed.map((id) => ({ claim_id: id, list: 'not_customer' })))
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'fraud-filing-company-list-1280')

    await tabTo(page, '.respondent-list .action-row button')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(
      'Ask them to prove their account',
    )
    await page.keyboard.press('Enter')
    await shown(listSection().getByText('Done: 3 of 3 asked to prove their account.'), 30_000)
    expect(
      queryDb<{ review_status: string; review_reason: string }>(
        'SELECT review_status, review_reason FROM claims WHERE id IN (?, ?, ?)',
        ...listed,
      ),
    ).toEqual(listed.map(() => ({ review_status: 'deficient', review_reason: 'account_unverified' })))
    await keepScreenshot(page, 'fraud-filing-account-proof-1280')
    expect(pageErrors).toEqual([])
  }, 90_000)

  it('fits a phone screen and passes the axe scan there', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${baseUrl()}/${APP}-admin/batches`)
    await shown(step1().getByText(/held for fraud review/))
    await shown(listSection().getByRole('heading', { name: "The company's list" }))
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'fraud-filing-390')
    expect(pageErrors).toEqual([])
  })
})
