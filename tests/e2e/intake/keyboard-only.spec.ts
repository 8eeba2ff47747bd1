import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, openPhonePage, queryDb, shown } from '../browser.ts'
import { focusedDescription, tabTo, typeText } from '../keyboard.ts'

interface StoredIntake {
  first_name: string
  cash_advance_apps: string
  is_active_military: number
  state: string
  signature_method: string
  typed_signature: string | null
}

describe('a claimant completes the main form with the keyboard alone', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('ticks, answers, types, signs by typing, submits, and the intake is stored', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/`)
    await page.locator('#root_firstName').waitFor()

    await tabTo(page, '#root_cashAdvanceApps-0')
    await page.keyboard.press('Space')
    await tabTo(page, '#root_feesIncurred-0')
    await page.keyboard.press('Space')
    // a radio group: Tab enters on its first answer (Yes), an arrow moves to No and picks it
    await tabTo(page, '#root_isOver18-0')
    await page.keyboard.press('Space')
    await tabTo(page, '#root_isActiveMilitary-0')
    await page.keyboard.press('ArrowDown')
    await tabTo(page, '#root_hasBankruptcy-0')
    await page.keyboard.press('ArrowDown')

    await tabTo(page, '#root_firstName')
    await typeText(page, 'Keala')
    await tabTo(page, '#root_lastName')
    await typeText(page, 'Keys')
    await tabTo(page, '#root_email')
    await typeText(page, 'keala.keys@example.com')
    await tabTo(page, '#root_phone')
    await typeText(page, '8085550177')
    await tabTo(page, '#root_address')
    await typeText(page, '1 Keyboard Lane')
    await tabTo(page, '#root_city')
    await typeText(page, 'Hilo')
    await tabTo(page, '#root_state')
    await typeText(page, 'Hawaii')
    await tabTo(page, '#root_zipCode')
    await typeText(page, '96720')

    await tabTo(page, 'canvas#root_signature')
    expect(await focusedDescription(page)).toMatch(/Type your signature instead/)
    await tabTo(page, '.signature button.link-button')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.activeElement?.id === 'root_signature')
    await typeText(page, 'Keala Keys')
    await shown(page.getByText('✓ Signature captured'))
    await tabTo(page, '#root_consentAgreed')
    await page.keyboard.press('Space')

    await tabTo(page, 'button.submit[type="submit"]')
    await page.keyboard.press('Enter')
    await page.waitForURL('**/thank-you')

    const [intake] = queryDb<StoredIntake>(
      `SELECT first_name, cash_advance_apps, is_active_military, state, signature_method, typed_signature
       FROM form_submissions WHERE email = ?`,
      'keala.keys@example.com',
    )
    expect(intake).toEqual({
      first_name: 'Keala',
      cash_advance_apps: '["earnin"]',
      is_active_military: 0,
      state: 'HI',
      signature_method: 'typed',
      typed_signature: 'Keala Keys',
    })
    expect(pageErrors).toEqual([])
  })

  it('tabbing through the empty form shows no message; submitting it focuses the first question and names it', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/`)
    await page.locator('#root_firstName').waitFor()

    await tabTo(page, 'button.submit[type="submit"]')
    expect(await page.locator('.field-error, .error-detail li').count()).toBe(0)

    await page.keyboard.press('Enter')
    expect(await shown(page.getByRole('alert'))).toBe(
      'Please complete Which cash advance apps have you used?: Please select at least one app',
    )
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('root_cashAdvanceApps-0')
  })
})
