import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, openPhonePage, queryDb, shown } from '../browser.ts'
import { fillClaim, submitButton } from './fill-claim.ts'

interface StoredClaim {
  first_name: string
  email: string
  phone_number: string
  cash_advance_count: number
  membership_months: number
  screenshot_key: string
  /** from the claim's signed record */
  signature: string
}

describe('a claimant submits a Step 2 claim on a phone', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('fills the Brigit form, lands on the success page and the claim is stored with its signature', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/brigit`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Brigit Cash Advance Claim (Step 2)')
    await fillClaim(page, { phoneDigits: '3105550101', email: '  Ana.Lopez@Example.com ' })
    expect(await page.getByLabel('Phone Number').inputValue()).toBe('(310) 555-0101')
    await shown(page.getByText('Signature captured'))

    await submitButton(page, 'Brigit').click()
    await page.waitForURL('**/brigit-success')
    await shown(page.getByRole('heading', { name: 'Thank You' }))
    await shown(page.getByText('Brigit Information Submitted Successfully'))
    await shown(page.getByRole('heading', { name: 'What happens next' }))

    const [claim] = queryDb<StoredClaim>(
      `SELECT claims.*, agreement_records.signature FROM claims
       JOIN agreement_records ON agreement_records.claim_id = claims.id
       WHERE claims.app = 'brigit' AND claims.phone_number = ?`,
      '(310) 555-0101',
    )
    expect(claim).toMatchObject({
      first_name: 'Ana',
      email: 'ana.lopez@example.com',
      cash_advance_count: 3,
      membership_months: 12,
    })
    expect(claim?.screenshot_key).toMatch(/^brigit-screenshots\/\d+-[0-9a-f]+\.png$/)
    expect(claim?.signature).toMatch(/^data:image\/png;base64,/)
    expect(pageErrors).toEqual([])
  })

  it('pushes the registration, 1 USD conversion and lead events once, not again on reload', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/earnin`)
    await fillClaim(page, { phoneDigits: '3105550102' })
    await submitButton(page, 'Earnin').click()
    await page.waitForURL('**/earnin-success')
    await shown(page.getByText('Earnin Information Submitted Successfully'))
    const events = await page.evaluate(() => window.dataLayer?.map((entry) => entry.event))
    expect(events).toEqual(['registration', 'ad_conversion', 'lead'])
    expect(await page.evaluate(() => window.dataLayer?.[1])).toMatchObject({ value: 1, currency: 'USD' })

    await page.reload()
    await page.getByText('Earnin Information Submitted Successfully').waitFor()
    expect(await page.evaluate(() => window.dataLayer?.length ?? 0)).toBe(0)
  })

  it('shows the duplicate message and keeps the claimant on the form when the phone was already used', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/cleo`)
    await fillClaim(page, { phoneDigits: '3105550103' })
    await submitButton(page, 'Cleo').click()
    await page.waitForURL('**/cleo-success')

    await page.goto(`${baseUrl()}/cleo`)
    await fillClaim(page, { phoneDigits: '3105550103', firstName: 'Someone' })
    await submitButton(page, 'Cleo').click()
    const alert = page.getByRole('alert').filter({ hasText: 'already exists' })
    await alert.waitFor()
    expect(await alert.textContent()).toBe(
      'A submission with this phone number already exists. Multiple submissions will not increase your chances of compensation.',
    )
    expect(new URL(page.url()).pathname).toBe('/cleo')
    expect(await page.getByRole('progressbar').count()).toBe(0)
    expect(await submitButton(page, 'Cleo').isEnabled()).toBe(true)
    expect(
      queryDb("SELECT first_name FROM claims WHERE app = 'cleo' AND phone_number = '(310) 555-0103'"),
    ).toEqual([{ first_name: 'Ana' }])
  })
})
