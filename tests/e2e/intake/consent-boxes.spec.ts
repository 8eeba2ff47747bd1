import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, openPhonePage, queryDb, shown } from '../browser.ts'
import { AGREEMENT_CONSENT, COMMUNICATIONS_CONSENT, fillIntake, submitButton } from './fill-intake.ts'

describe('the consent boxes on / are ticked by the claimant, never for them', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('loads with both boxes unticked', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/`)
    const agreement = page.getByRole('checkbox', { name: AGREEMENT_CONSENT })
    await agreement.waitFor()
    expect(await agreement.isChecked()).toBe(false)
    expect(await page.getByRole('checkbox', { name: COMMUNICATIONS_CONSENT }).isChecked()).toBe(false)
  })

  it('refuses to send a filled form until the agreement is ticked, then stores the communications consent as not given', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    let intakePosts = 0
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/intake') intakePosts++
    })
    await page.goto(`${baseUrl()}/`)
    await fillIntake(page, {
      email: 'ikaika.consent@example.com',
      phoneDigits: '8085550177',
      agreementConsent: false,
      communicationsConsent: false,
    })
    await submitButton(page).click()

    await shown(page.getByText('You must agree to the terms', { exact: true }))
    // the message is the agreement box's own: it is in the same field
    await shown(page.locator('.has-error', { has: page.getByRole('checkbox', { name: AGREEMENT_CONSENT }) }))
    expect(await page.locator('.has-error').count()).toBe(1)
    expect(intakePosts).toBe(0)

    await page.getByRole('checkbox', { name: AGREEMENT_CONSENT }).check()
    await submitButton(page).click()
    await page.waitForURL('**/thank-you')
    expect(
      queryDb<{ consent_agreed: number; communications_consent: number }>(
        'SELECT consent_agreed, communications_consent FROM form_submissions WHERE email = ?',
        'ikaika.consent@example.com',
      ),
    ).toEqual([{ consent_agreed: 1, communications_consent: 0 }])
    expect(pageErrors).toEqual([])
  })
})
