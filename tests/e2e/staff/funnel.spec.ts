import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import {
  baseUrl,
  connectBrowser,
  keepScreenshot,
  openPhonePage,
  queryDb,
  shown,
  staffSessionCookies,
} from '../browser.ts'
import { fillIntake, submitButton as submitIntakeButton } from '../intake/fill-intake.ts'
import { fillClaim, submitButton } from '../step2/fill-claim.ts'

// one claimant per campaign source, with e-mails and phones no other spec uses
const CLAIMANTS = [
  { source: 'fb', email: 'funnel.fb@example.com', phoneDigits: '8085550731' },
  { source: 'tv', email: 'funnel.tv@example.com', phoneDigits: '8085550732' },
]

describe('claimants from two campaign sources, and the funnel that counts them', () => {
  let browser: Browser

  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('takes each claimant from /?utm_source= through the intake and Earnin’s Step 2, keeping the source', async () => {
    for (const claimant of CLAIMANTS) {
      // a browser of their own: the first landing is kept in its storage, not a cookie
      const { page, pageErrors } = await openPhonePage(browser)
      await page.goto(`${baseUrl()}/?utm_source=${claimant.source}&utm_campaign=winter`)
      await fillIntake(page, { apps: ['Earnin'], email: claimant.email, phoneDigits: claimant.phoneDigits })
      await submitIntakeButton(page).click()
      await page.waitForURL('**/thank-you')
      // later, by the Step 2 link without any parameter: the claim still counts for the first landing
      await page.goto(`${baseUrl()}/earnin`)
      await fillClaim(page, { email: claimant.email, phoneDigits: claimant.phoneDigits })
      await submitButton(page, 'Earnin').click()
      await page.waitForURL('**/earnin-success')
      await shown(page.getByText('Earnin Information Submitted Successfully'))
      expect(pageErrors).toEqual([])
      await page.context().close()
    }
    const stored = queryDb<{ source: string; attribution: string; intake_source: string }>(
      `SELECT claims.source, claims.attribution, form_submissions.source AS intake_source
       FROM claims JOIN form_submissions ON form_submissions.id = claims.intake_id
       WHERE claims.email IN (?, ?) ORDER BY claims.email`,
      ...CLAIMANTS.map((claimant) => claimant.email),
    )
    expect(stored.map((row) => [row.source, row.intake_source, JSON.parse(row.attribution)])).toEqual([
      ['fb', 'fb', { utm_source: 'fb', utm_campaign: 'winter' }],
      ['tv', 'tv', { utm_source: 'tv', utm_campaign: 'winter' }],
    ])
  })

  it('shows each source with its intake and claim, counts that reconcile with the claims table', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(await staffSessionCookies())
    const page = await context.newPage()
    await page.goto(`${baseUrl()}/staff`)
    await page.getByRole('link', { name: 'Funnel' }).click()
    await page.waitForURL(`${baseUrl()}/staff/funnel`)
    await shown(page.getByRole('heading', { level: 1, name: 'Funnel' }))
    const table = page.getByRole('region', { name: 'Funnel table' })
    for (const { source } of CLAIMANTS) {
      const [counted] = queryDb<{ claims: number; intakes: number }>(
        `SELECT (SELECT count(*) FROM claims WHERE source = ?) AS claims,
                (SELECT count(*) FROM form_submissions WHERE source = ?) AS intakes`,
        source,
        source,
      )
      expect(counted).toEqual({ claims: 1, intakes: 1 })
      const row = table
        .getByRole('row')
        .filter({ has: page.getByRole('rowheader', { name: source, exact: true }) })
      expect(await shown(row)).toMatch(
        new RegExp(
          // then the held and scored claims and the fraud rate, as far as the scores have come
          `^${source}\\s+1\\s+1\\s*Earnin 1\\s+1\\.00 claim per intake\\s+0\\s+0\\.0 %\\s+0\\s+0\\.0 %\\s+[01]\\s*of [01] scored\\s+(—|\\d+\\.\\d %)$`,
        ),
      )
      await shown(page.getByRole('heading', { level: 3, name: source, exact: true }))
    }
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'funnel-1280')
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'funnel-390')
    await context.close()
  })
})
