import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
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
import { bankScreenshot, encodeJpegImage, encodePngImage } from '../../server/support/bank-screenshots.ts'
import { pngDataUrl } from '../../server/support/claim-fixtures.ts'

// one claimant's statement, and a second picture for a cluster of its own
const STATEMENT = bankScreenshot({ seed: 73, width: 540, height: 1170 })
const OTHER_STATEMENT = bankScreenshot({ seed: 74, width: 540, height: 1170 })

/** A claim straight to the API, as the form sends it; each with a phone and e-mail no other spec uses. */
async function fileClaim(n: number, screenshot: Buffer, type: 'image/png' | 'image/jpeg'): Promise<number> {
  const body = new FormData()
  body.set(
    'data',
    JSON.stringify({
      firstName: 'Cluster',
      lastName: `Claimant${n}`,
      email: `cluster${n}.duplicate@example.com`,
      phoneNumber: `(602) 555-06${String(n).padStart(2, '0')}`,
      cashAdvanceCount: 2,
      membershipMonths: 5,
      signature: pngDataUrl(),
    }),
  )
  body.set(
    'screenshot',
    new Blob([new Uint8Array(screenshot)], { type }),
    type === 'image/png' ? 'a.png' : 'a.jpg',
  )
  const response = await fetch(`${baseUrl()}/api/forms/brigit/submissions`, {
    method: 'POST',
    headers: { Origin: baseUrl(), ...(await proofOfWorkHeaders()) },
    body,
  })
  if (response.status !== 201)
    throw new Error(`the claim answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { id: number }).id
}

const flaggedCount = (id: number) =>
  queryDb<{ n: number }>('SELECT count(*) AS n FROM screenshot_matches WHERE claim_id = ?', id)[0]?.n ?? 0

describe('staff decide flagged duplicates, surest first, a cluster at once, a rejection confirmed', () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  const ids = { claim: 0, identical: 0, nearCopy: 0, cluster: [0, 0, 0] }

  beforeAll(async () => {
    const png = encodePngImage(STATEMENT)
    ids.claim = await fileClaim(1, png, 'image/png')
    ids.nearCopy = await fileClaim(2, encodeJpegImage(STATEMENT, 60), 'image/jpeg')
    ids.identical = await fileClaim(3, png, 'image/png')
    const other = encodePngImage(OTHER_STATEMENT)
    ids.cluster = [
      await fileClaim(4, other, 'image/png'),
      await fileClaim(5, encodeJpegImage(OTHER_STATEMENT, 70), 'image/jpeg'),
      await fileClaim(6, encodeJpegImage(OTHER_STATEMENT, 50), 'image/jpeg'),
    ]
    // the server checks screenshots once it is quiet, off the claims' path
    await vi.waitFor(
      () => {
        if (flaggedCount(ids.claim) !== 2 || flaggedCount(ids.cluster[0]!) !== 2) {
          throw new Error('the duplicates are not flagged yet')
        }
      },
      { timeout: 60_000, interval: 500 },
    )
    const cookies = await staffSessionCookies()
    // a received claim cannot be rejected: the claim is taken into review first
    const moved = await fetch(`${baseUrl()}/api/staff/claims/${ids.claim}/moves`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Origin: baseUrl(),
        Cookie: cookies.map(({ name, value }) => `${name}=${value}`).join('; '),
      },
      body: JSON.stringify({ to: 'in_review', version: 0 }),
    })
    if (moved.status !== 200) throw new Error(`the move answered ${moved.status}`)
    browser = await connectBrowser()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(cookies)
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
  })

  const flagged = () =>
    page
      .getByRole('region', { name: 'Selected Submission Details' })
      .getByRole('region', { name: 'Flagged as a duplicate' })
  const dialog = () =>
    page.getByRole('dialog', { name: `Reject claim ${ids.claim} as a duplicate of claim ${ids.identical}?` })

  for (const viewport of [
    { width: 1280, height: 900 },
    { width: 390, height: 844 },
  ]) {
    it(`lists the identical file first, names each match's certainty, and asks before rejecting, at ${viewport.width} px`, async () => {
      await page.setViewportSize(viewport)
      await page.goto(`${baseUrl()}/brigit-admin/claims/${ids.claim}`)
      const pairs = flagged().getByRole('listitem')
      await shown(pairs.first().getByRole('link', { name: `Claim ${ids.identical} (Brigit)` }))
      expect(await pairs.first().getByRole('paragraph').first().innerText()).toBe(
        `Claim ${ids.identical} (Brigit): identical file`,
      )
      expect(await pairs.nth(1).getByRole('paragraph').first().innerText()).toMatch(
        new RegExp(`^Claim ${ids.nearCopy} \\(Brigit\\): near copy, distance \\d+$`),
      )

      const reject = pairs.first().getByRole('button', { name: 'Duplicate: move to Rejected' })
      await reject.focus()
      await page.keyboard.press('Enter')
      await shown(dialog())
      expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Cancel')
      expect(await axeViolations(page)).toEqual([])
      await keepScreenshot(page, `duplicate-confirm-${viewport.width}`)
      await page.keyboard.press('Escape')
      await vi.waitFor(() => expect(dialog().count()).resolves.toBe(0))
      expect(await reject.evaluate((button) => button === document.activeElement)).toBe(true)
      const [claim] = queryDb<{ review_status: string }>(
        'SELECT review_status FROM claims WHERE id = ?',
        ids.claim,
      )
      expect(claim?.review_status).toBe('in_review')
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
      expect(overflow).toBeLessThanOrEqual(0)
      expect(pageErrors).toEqual([])
    })
  }

  it('rejects the claim as a duplicate once the dialog naming it is confirmed with the keyboard', async () => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`${baseUrl()}/brigit-admin/claims/${ids.claim}`)
    const pair = flagged().getByRole('listitem').first()
    await pair.getByRole('button', { name: 'Duplicate: move to Rejected' }).focus()
    await page.keyboard.press('Enter')
    await shown(dialog())
    await page.keyboard.press('Tab')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(`Reject claim ${ids.claim}`)
    await page.keyboard.press('Enter')
    await shown(
      flagged().getByText(`Claim ${ids.claim} moved to Rejected as a duplicate of claim ${ids.identical}.`),
    )
    const [claim] = queryDb<{ review_status: string }>(
      'SELECT review_status FROM claims WHERE id = ?',
      ids.claim,
    )
    expect(claim?.review_status).toBe('rejected')
    expect(pageErrors).toEqual([])
  })

  it('decides a cluster "not duplicates" with one key press, which unflags all its claims', async () => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`${baseUrl()}/brigit-admin/claims/${ids.cluster[1]}`)
    await shown(flagged().getByText(`claims ${ids.cluster.join(', ')} (3 claims)`))
    await keepScreenshot(page, 'duplicate-cluster-1280')
    expect(await axeViolations(page)).toEqual([])
    await flagged().getByRole('button', { name: 'Not duplicates: all 3 claims' }).focus()
    await page.keyboard.press('Enter')
    await shown(flagged().getByText(`Claims ${ids.cluster.join(', ')} are not duplicates of each other`))
    expect(ids.cluster.map(flaggedCount)).toEqual([0, 0, 0])
    expect(pageErrors).toEqual([])
  })
})
