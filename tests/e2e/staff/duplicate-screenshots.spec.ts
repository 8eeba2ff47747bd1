import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  baseUrl,
  connectBrowser,
  proofOfWorkHeaders,
  queryDb,
  shown,
  staffSessionCookies,
} from '../browser.ts'
import { bankScreenshot, encodeJpegImage, encodePngImage } from '../../server/support/bank-screenshots.ts'
import { pngDataUrl } from '../../server/support/claim-fixtures.ts'

const SCREENSHOT = bankScreenshot({ seed: 41, width: 540, height: 1170 })

// phones and e-mails no other spec uses
const FIRST = { email: 'first.duplicate@example.com', phoneNumber: '(602) 555-0171', file: 'a.png' }
const COPY = { email: 'copy.duplicate@example.com', phoneNumber: '(602) 555-0172', file: 'b.jpg' }
const OTHER_APP = { email: 'cleo.duplicate@example.com', phoneNumber: '(602) 555-0173', file: 'c.png' }

/** A claim straight to the API, as the form sends it. */
async function fileClaim(
  app: string,
  { email, phoneNumber, file }: { email: string; phoneNumber: string; file: string },
  screenshot: Buffer,
): Promise<number> {
  const body = new FormData()
  body.set(
    'data',
    JSON.stringify({
      firstName: 'Dupe',
      lastName: 'Claimant',
      email,
      phoneNumber,
      cashAdvanceCount: 2,
      membershipMonths: 5,
      signature: pngDataUrl(),
    }),
  )
  const type = file.endsWith('.jpg') ? 'image/jpeg' : 'image/png'
  body.set('screenshot', new Blob([new Uint8Array(screenshot)], { type }), file)
  const response = await fetch(`${baseUrl()}/api/forms/${app}/submissions`, {
    method: 'POST',
    headers: { Origin: baseUrl(), ...(await proofOfWorkHeaders()) },
    body,
  })
  if (response.status !== 201)
    throw new Error(`the claim answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { id: number }).id
}

function detailsPanel(page: Page) {
  return page.getByRole('region', { name: 'Selected Submission Details' })
}

describe('staff see claims flagged for a duplicate screenshot', () => {
  let browser: Browser
  let context: BrowserContext
  let page: Page
  const pageErrors: string[] = []
  const ids = { first: 0, copy: 0, otherApp: 0 }

  beforeAll(async () => {
    ids.first = await fileClaim('brigit', FIRST, encodePngImage(SCREENSHOT))
    ids.copy = await fileClaim('brigit', COPY, encodeJpegImage(SCREENSHOT, 60))
    ids.otherApp = await fileClaim('cleo', OTHER_APP, encodePngImage(SCREENSHOT))
    // the server checks screenshots once it is quiet, off the claims' path
    await vi.waitFor(
      () => {
        const [row] = queryDb<{ n: number }>(
          'SELECT count(*) AS n FROM screenshot_matches WHERE claim_id = ?',
          ids.first,
        )
        if (row?.n !== 2) throw new Error('the duplicates are not flagged yet')
      },
      { timeout: 60_000, interval: 500 },
    )
    browser = await connectBrowser()
    context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(await staffSessionCookies())
    page = await context.newPage()
    page.on('pageerror', (error) => pageErrors.push(error.message))
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
  })

  it('filters the list to flagged claims with the keyboard, each marked in the Flagged column', async () => {
    await page.goto(`${baseUrl()}/brigit-admin`)
    await shown(page.getByRole('heading', { level: 1, name: 'Brigit Admin Dashboard' }))
    const filter = page.getByRole('checkbox', { name: 'Flagged only' })
    await filter.focus()
    await page.keyboard.press('Space')
    expect(await filter.isChecked()).toBe(true)
    await shown(page.getByText(/^Flagged: \d+ of \d+ submissions$/))

    const firstRow = page.getByRole('row').filter({ hasText: FIRST.email })
    expect(await shown(firstRow.locator('td[data-column="flagged"]'))).toBe('Yes (2)')
    await shown(page.getByRole('row').filter({ hasText: COPY.email }))
    expect(pageErrors).toEqual([])
  })

  it("lists the matching claims in a flagged claim's details, and each link opens that claim", async () => {
    await page.goto(`${baseUrl()}/brigit-admin`)
    await page
      .getByRole('row')
      .filter({ hasText: FIRST.email })
      .getByRole('button', { name: 'View Details' })
      .click()
    const details = detailsPanel(page)
    await shown(details.getByRole('heading', { name: 'Flagged: same screenshot as another claimant' }))
    const sameApp = details.getByRole('link', { name: `Claim ${ids.copy} (Brigit)` })
    const otherApp = details.getByRole('link', { name: `Claim ${ids.otherApp} (Cleo)` })
    await shown(sameApp)
    await shown(otherApp)

    await sameApp.focus()
    await page.keyboard.press('Enter')
    await shown(details.getByText(COPY.email))
    await shown(details.getByRole('link', { name: `Claim ${ids.first} (Brigit)` }))

    await details.getByRole('link', { name: `Claim ${ids.otherApp} (Cleo)` }).click()
    await page.waitForURL(`**/cleo-admin?claim=${ids.otherApp}`)
    await shown(page.getByRole('heading', { level: 1, name: 'Cleo Admin Dashboard' }))
    await shown(detailsPanel(page).getByText(OTHER_APP.email))
    expect(pageErrors).toEqual([])
  })

  it('fits a phone screen: the filter and the matching claims are reachable at 390 px', async () => {
    await page.setViewportSize({ width: 390, height: 844 })
    await page.goto(`${baseUrl()}/brigit-admin?claim=${ids.first}`)
    await shown(detailsPanel(page).getByRole('link', { name: `Claim ${ids.copy} (Brigit)` }))
    await shown(page.getByRole('checkbox', { name: 'Flagged only' }))
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
    expect(overflow).toBeLessThanOrEqual(0)
  })

  it('shows both screenshots side by side and records "Not a duplicate" with the keyboard, which unflags the pair', async () => {
    await page.setViewportSize({ width: 1280, height: 900 })
    await page.goto(`${baseUrl()}/brigit-admin/claims/${ids.first}`)
    const details = detailsPanel(page)
    const flagged = details.getByRole('region', { name: 'Flagged as a duplicate' })
    const pair = flagged.getByRole('listitem').filter({ hasText: `Claim ${ids.otherApp} (Cleo)` })
    await shown(pair.getByRole('img', { name: `Screenshot of claim ${ids.first}` }))
    await shown(pair.getByRole('img', { name: `Screenshot of claim ${ids.otherApp}` }))
    // both pictures load once the pair is in view (they load lazily, as a reviewer scrolls): the other
    // app's claim is served to an account that may see it
    await pair.scrollIntoViewIfNeeded()
    await expect
      .poll(
        () =>
          pair
            .locator('img')
            .evaluateAll((images) => images.map((image) => (image as HTMLImageElement).naturalWidth > 0)),
        { timeout: 10_000 },
      )
      .toEqual([true, true])
    // a received claim cannot be rejected yet: the page says so rather than offering it
    await shown(flagged.getByText(/moves a claim to Rejected, which a claim in Received cannot/))

    await pair.getByRole('button', { name: 'Not a duplicate' }).focus()
    await page.keyboard.press('Enter')
    await shown(flagged.getByText(`Claim ${ids.first} is not a duplicate of claim ${ids.otherApp}.`))
    await vi.waitFor(() =>
      expect(flagged.getByRole('link', { name: `Claim ${ids.otherApp} (Cleo)` }).count()).resolves.toBe(0),
    )
    await shown(flagged.getByRole('link', { name: `Claim ${ids.copy} (Brigit)` }))
    const [decision] = queryDb<{ detail: string }>(
      "SELECT detail FROM audit_log WHERE action = 'duplicate_cleared' ORDER BY id DESC LIMIT 1",
    )
    expect(decision?.detail).toBe(`claim ${ids.first}: not a duplicate of claim ${ids.otherApp}`)
    expect(pageErrors).toEqual([])
  })
})
