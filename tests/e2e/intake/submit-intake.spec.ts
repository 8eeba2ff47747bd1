import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, openPhonePage, queryDb, shown } from '../browser.ts'
import { fillIntake, submitButton } from './fill-intake.ts'

const THANK_YOU_LINE = 'Thank you. We will be in touch with next steps.'
const DUPLICATE_MESSAGE =
  'A submission with this email and phone number already exists. Numerous submissions will not increase your chances of a payout. We e-mailed you a link to your claims, where you can add an app you missed.'

interface IntakeRow {
  id: number
  email: string
  phone: string
  first_name: string
  is_over_18: number
  is_active_military: number
  has_bankruptcy: number
  state: string
  consent_agreed: number
  communications_consent: number
}

function dataLayerOf(page: Page) {
  return page.evaluate(() => window.dataLayer ?? [])
}

describe('a claimant completes the main intake form', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('lands on /thank-you, fires the events once, and stores the intake with one case per chosen app', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/`)
    await fillIntake(page, {
      apps: ['Earnin', 'MoneyLion', 'FloatMe'],
      email: '  Maya.Kahale@Example.com ',
      phoneDigits: '8085550101',
    })
    await submitButton(page).click()
    await page.waitForURL('**/thank-you')

    // the form's page can stay on screen while the thank-you page's code loads: wait for the new heading
    await shown(page.getByRole('heading', { level: 1, name: 'Thank You' }))
    await shown(page.getByText(THANK_YOU_LINE))
    // the firm's name and mark head the confirmation, as every claimant page
    await page.getByRole('banner').getByRole('link', { name: 'Cash Advance Claims Law Group' }).waitFor()
    await expect
      .poll(() => dataLayerOf(page))
      .toEqual([
        expect.objectContaining({ event: 'conversion', value: 1, currency: 'USD' }),
        expect.objectContaining({ event: 'lead' }),
      ])

    // the same submission counts once, even when the page is reloaded
    await page.reload()
    await shown(page.getByText(THANK_YOU_LINE))
    await page.waitForTimeout(500)
    expect(await dataLayerOf(page)).toEqual([])

    const rows = queryDb<IntakeRow>(
      'SELECT * FROM form_submissions WHERE email = ?',
      'maya.kahale@example.com',
    )
    expect(rows).toEqual([
      expect.objectContaining({
        phone: '(808) 555-0101',
        first_name: 'Maya',
        is_over_18: 1,
        is_active_military: 0,
        has_bankruptcy: 0,
        state: 'HI',
        consent_agreed: 1,
        communications_consent: 1,
      }),
    ])
    const cases = queryDb<{ app: string; email: string; phone: string }>(
      'SELECT app, email, phone FROM intake_cases WHERE original_submission_id = ? ORDER BY app',
      rows[0]!.id,
    )
    expect(cases).toEqual(
      ['earnin', 'floatme', 'moneylion'].map((app) => ({
        app,
        email: 'maya.kahale@example.com',
        phone: '(808) 555-0101',
      })),
    )
    expect(pageErrors).toEqual([])
  })

  it('refuses the same e-mail and phone a second time with the duplicate alert and stays on the form', async () => {
    const first = await openPhonePage(browser)
    await first.page.goto(`${baseUrl()}/`)
    await fillIntake(first.page, { email: 'keoni.duplicate@example.com', phoneDigits: '8085550102' })
    await submitButton(first.page).click()
    await first.page.waitForURL('**/thank-you')

    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/`)
    await fillIntake(page, {
      apps: ['Chime'],
      firstName: 'Keoni',
      email: 'KEONI.DUPLICATE@example.com',
      phoneDigits: '8085550102',
    })
    await submitButton(page).click()
    expect(await shown(page.getByRole('alert'))).toBe(DUPLICATE_MESSAGE)
    expect(new URL(page.url()).pathname).toBe('/')
    expect(await submitButton(page).isEnabled()).toBe(true)
    const stored = queryDb<{ count: number }>(
      'SELECT COUNT(*) AS count FROM form_submissions WHERE email = ?',
      'keoni.duplicate@example.com',
    )
    expect(stored).toEqual([{ count: 1 }])
    expect(pageErrors).toEqual([])
  })

  it('shows Submitting... while the intake is on its way', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/`)
    await fillIntake(page, { email: 'lani.slow@example.com', phoneDigits: '8085550103' })
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await page.route(
      (url) => url.pathname === '/api/intake',
      async (route) => {
        await held
        await route.continue()
      },
    )
    await submitButton(page).click()
    const busy = page.getByRole('button', { name: 'Submitting...' })
    await busy.waitFor()
    expect(await busy.isDisabled()).toBe(true)
    release()
    await page.waitForURL('**/thank-you')
  })

  it('tells the claimant when the submission fails, and keeps what was typed', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/`)
    await fillIntake(page, { email: 'nalu.offline@example.com', phoneDigits: '8085550104' })
    await page.route(
      (url) => url.pathname === '/api/intake',
      (route) =>
        route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'INTERNAL_ERROR', message: 'the server is busy' } }),
        }),
    )
    await submitButton(page).click()
    expect(await shown(page.getByRole('alert'))).toBe(
      'There was an error submitting your form. Please try again. Error: the server is busy',
    )
    expect(await page.getByLabel('Email Address').inputValue()).toBe('nalu.offline@example.com')
    expect(await submitButton(page).isEnabled()).toBe(true)
  })

  it('fires nothing on a visit to /thank-you that follows no submission', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/thank-you`)
    await shown(page.getByText(THANK_YOU_LINE))
    await page.waitForTimeout(500)
    expect(await dataLayerOf(page)).toEqual([])
  })
})
