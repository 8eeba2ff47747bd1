import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, launchBrowser, openPhonePage, queryDb } from '../browser.ts'
import { drawSignature, SCREENSHOT_PNG, submitButton } from './fill-claim.ts'

const WITH_COUNTRY_CODE = '+1 (555) 867-5309'
const SHOWN = '(555) 867-5309'

/** The three ways a number reaches the field: key by key, pasted in one go, filled by autofill. */
const ENTRIES: [string, (page: Page, label: string, text: string) => Promise<void>][] = [
  ['typed key by key', (page, label, text) => page.getByLabel(label).pressSequentially(text)],
  [
    'pasted',
    async (page, label, text) => {
      await page.getByLabel(label).focus()
      // one insertion with one input event, as a paste is
      await page.keyboard.insertText(text)
    },
  ],
  // Chromium's autofill sets the whole value at once and fires input, as fill() does
  ['autofilled', (page, label, text) => page.getByLabel(label).fill(text)],
]

describe('a phone typed, pasted or autofilled with its country code', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  for (const [how, enter] of ENTRIES) {
    it(`shows ${SHOWN} on the Step 2 form and on the main form when ${how} as ${WITH_COUNTRY_CODE}`, async () => {
      const { page } = await openPhonePage(browser)
      await page.goto(`${baseUrl()}/brigit`)
      await enter(page, 'Phone Number', WITH_COUNTRY_CODE)
      expect(await page.getByLabel('Phone Number').inputValue()).toBe(SHOWN)

      await page.goto(`${baseUrl()}/`)
      await enter(page, 'Phone Number', '1-555-867-5309')
      expect(await page.getByLabel('Phone Number').inputValue()).toBe(SHOWN)
    })
  }

  it('asks phones to fill the field with the tel token', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/brigit`)
    expect(await page.getByLabel('Phone Number').getAttribute('autocomplete')).toBe('tel')
    expect(await page.getByLabel('Email Address').getAttribute('autocomplete')).toBe('email')
    expect(await page.getByLabel('First Name').getAttribute('autocomplete')).toBe('given-name')
  })

  it('files a claim whose phone was autofilled with +1, and stores the ten digits', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/brigit`)
    await page.getByLabel('First Name').fill('Jenny')
    await page.getByLabel('Last Name').fill('Tutone')
    await page.getByLabel('Email Address').fill('jenny.autofill@example.com')
    await page.getByLabel('Phone Number').fill('+1 (303) 867-5309')
    await page.getByLabel('Bank Statement Screenshot').setInputFiles(SCREENSHOT_PNG)
    await drawSignature(page)
    await submitButton(page, 'Brigit').click()
    await page.waitForURL('**/brigit-success')

    const rows = queryDb<{ phone_number: string }>(
      'SELECT phone_number FROM claims WHERE email = ?',
      'jenny.autofill@example.com',
    )
    expect(rows).toEqual([{ phone_number: '(303) 867-5309' }])
  })
})
