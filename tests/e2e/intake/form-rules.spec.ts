import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, openPhonePage, shown } from '../browser.ts'
import {
  AGREEMENT_CONSENT,
  answer,
  APPS_QUESTION,
  COMMUNICATIONS_CONSENT,
  BANKRUPTCY_QUESTION,
  MILITARY_QUESTION,
  OVER_18_QUESTION,
  submitButton,
} from './fill-intake.ts'

const EVERY_MESSAGE = [
  'Please select at least one app',
  'Please select at least one fee type',
  'Please indicate if you are 18 or older',
  'Please indicate your military status',
  'Please indicate your bankruptcy status',
  'First name is required',
  'Last name is required',
  'Email is required',
  'Phone number is required',
  'Address is required',
  'City is required',
  'State is required',
  'ZIP code is required',
  'Signature is required',
  'You must agree to the terms',
]

describe('the main intake form checks every answer before sending', () => {
  let browser: Browser
  let page: Page
  let intakePosts: number
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })
  beforeEach(async () => {
    page = (await openPhonePage(browser)).page
    intakePosts = 0
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/intake') intakePosts++
    })
    await page.goto(`${baseUrl()}/`)
    await page.getByLabel('First Name').waitFor()
  })

  it('shows the landing copy with the figures and the View My Agreement link', async () => {
    const copy = await shown(page.locator('.landing-copy'))
    expect(copy).toContain('up to $1,000 per app used')
    expect(copy).toContain('Proof of use is required')
    expect(copy).toContain('40% contingency')
    expect(copy).toContain('or less if state law requires')
    expect(copy).toContain('reasonable case costs')
    expect(copy).toContain('You owe nothing if there is no recovery')
    expect(copy).toContain('Signing less than 90 days before the filing deadline may be too late')
    expect(copy).toContain('5 years')
    await page.getByRole('link', { name: 'View My Agreement' }).click()
    await page.waitForURL('**/view-agreement')
  })

  it('lists the four apps, leaves Yes/No unanswered and both consents unticked', async () => {
    const apps = page.getByRole('group', { name: APPS_QUESTION }).getByRole('checkbox')
    const labels = await page.getByRole('group', { name: APPS_QUESTION }).locator('label').allInnerTexts()
    expect(labels.map((label) => label.trim())).toEqual(['Earnin', 'Chime', 'MoneyLion', 'FloatMe'])
    expect(await apps.evaluateAll((boxes) => boxes.map((box) => (box as HTMLInputElement).checked))).toEqual([
      false,
      false,
      false,
      false,
    ])
    for (const question of [OVER_18_QUESTION, MILITARY_QUESTION, BANKRUPTCY_QUESTION]) {
      const radios = page.getByRole('radiogroup', { name: question }).getByRole('radio')
      expect(await radios.count()).toBe(2)
      expect(
        await radios.evaluateAll((inputs) => inputs.some((input) => (input as HTMLInputElement).checked)),
      ).toBe(false)
    }
    expect(await page.getByRole('checkbox', { name: AGREEMENT_CONSENT }).isChecked()).toBe(false)
    expect(await page.getByRole('checkbox', { name: COMMUNICATIONS_CONSENT }).isChecked()).toBe(false)
    const states = await page
      .getByLabel(/^State\W*$/)
      .locator('option')
      .allTextContents()
    expect(states[0]).toBe('Select a state')
    expect(states.slice(1)).toHaveLength(50)
    // shown by name, stored by code
    expect(states.slice(1, 4)).toEqual(['Alabama', 'Alaska', 'Arizona'])
    expect(
      await page
        .getByLabel(/^State\W*$/)
        .locator('option', { hasText: 'Hawaii' })
        .getAttribute('value'),
    ).toMatch(/HI|\d+/)
    expect(states).not.toContain('DC')
    // a phone brings up its number keypad for the ZIP code
    expect(await page.getByLabel('ZIP Code').getAttribute('inputmode')).toBe('numeric')
  })

  it('shows every message on an empty submit and sends nothing', async () => {
    await submitButton(page).click()
    for (const message of EVERY_MESSAGE) await shown(page.getByText(message, { exact: true }))
    await page.waitForTimeout(300)
    expect(intakePosts).toBe(0)
    expect(await page.locator('.has-error').count()).toBe(EVERY_MESSAGE.length)
  })

  it("clears a field's message as soon as that field is edited, and shows it again when left wrong", async () => {
    await submitButton(page).click()
    await shown(page.getByText('First name is required'))
    await page.getByLabel('First Name').pressSequentially('M')
    expect(await page.getByText('First name is required').count()).toBe(0)
    expect(await page.getByText('Last name is required').count()).toBe(1)

    await answer(page, MILITARY_QUESTION, 'No')
    expect(await page.getByText('Please indicate your military status').count()).toBe(0)
    await page.getByRole('group', { name: APPS_QUESTION }).getByLabel('Chime').click()
    expect(await page.getByText('Please select at least one app').count()).toBe(0)
    await page.getByLabel(/^State\W*$/).selectOption({ label: 'California' })
    expect(await page.getByText('State is required').count()).toBe(0)

    const email = page.getByLabel('Email Address')
    await email.fill('maya@')
    expect(await page.getByText('Email is required').count()).toBe(0)
    await email.blur()
    await shown(page.getByText('Email is invalid'))
    await email.pressSequentially('example.com')
    expect(await page.getByText('Email is invalid').count()).toBe(0)

    await page.getByLabel('First Name').fill('')
    await page.getByLabel('First Name').blur()
    await shown(page.getByText('First name is required'))
  })

  it('asks for the agreement consent when it is left unticked, and not for the communications one', async () => {
    await submitButton(page).click()
    await shown(page.getByText('You must agree to the terms'))
    expect(await page.getByText('Please answer the communications consent').count()).toBe(0)
    await page.getByRole('checkbox', { name: AGREEMENT_CONSENT }).click()
    expect(await page.getByText('You must agree to the terms').count()).toBe(0)
  })

  it('formats the phone as it is typed, and shows a digit too many rather than dropping it', async () => {
    const phone = page.getByLabel('Phone Number')
    await phone.pressSequentially('8085550199')
    expect(await phone.inputValue()).toBe('(808) 555-0199')
    await phone.pressSequentially('9')
    expect(await phone.inputValue()).toBe('80855501999')
    await phone.press('Backspace')
    expect(await phone.inputValue()).toBe('(808) 555-0199')
  })

  it('shows a closed app as its notice instead of a choice', async () => {
    const closedPage = (await openPhonePage(browser)).page
    await closedPage.route('**/api/intake/config', async (route) => {
      const response = await route.fetch()
      const config = (await response.json()) as { closedApps: Record<string, unknown> }
      config.closedApps = {
        chime: {
          heading: 'Chime claims are closed',
          subheading: 'We are no longer accepting new Chime claims.',
          body: 'Thank you for your interest.',
        },
      }
      await route.fulfill({ response, json: config })
    })
    await closedPage.goto(`${baseUrl()}/`)
    await shown(closedPage.getByRole('heading', { name: 'Chime claims are closed' }))
    await closedPage.getByLabel('First Name').waitFor()
    const labels = await closedPage
      .getByRole('group', { name: APPS_QUESTION })
      .locator('label')
      .allInnerTexts()
    expect(labels.map((label) => label.trim())).toEqual(['Earnin', 'MoneyLion', 'FloatMe'])
  })
})
