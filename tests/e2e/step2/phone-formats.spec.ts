import type { Browser, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, queryDb, reusedPhonePage, shown } from '../browser.ts'
import { fillClaim, submitButton } from './fill-claim.ts'
import { linkMailedAfter, pressFind } from '../agreements/agreement-link.ts'

const WITH_COUNTRY_CODE = '+1 (555) 867-5309'
const SHOWN = '(555) 867-5309'

/** The ways a number reaches the field. */
const ENTRIES: [string, (page: Page, field: Locator, text: string) => Promise<void>][] = [
  ['typed key by key', (_page, field, text) => field.pressSequentially(text)],
  [
    'pasted from the clipboard',
    async (page, field, text) => {
      await page.evaluate((copied) => navigator.clipboard.writeText(copied), text)
      await field.focus()
      await page.keyboard.press('ControlOrMeta+V')
    },
  ],
  // Chromium's autofill sets the whole value at once and fires one input event, as fill() does
  ['autofilled', (_page, field, text) => field.fill(text)],
  [
    'autofilled through the value setter with one input event',
    (_page, field, text) =>
      field.evaluate((input: HTMLInputElement, value) => {
        // React listens for the input event; the prototype's setter is what autofill goes through
        Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, value)
        input.dispatchEvent(new Event('input', { bubbles: true }))
      }, text),
  ],
]

const openPage = reusedPhonePage()

async function openForm(browser: Browser, path: string): Promise<{ page: Page; phone: Locator }> {
  const { page } = await openPage(browser)
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() })
  await page.goto(`${baseUrl()}${path}`)
  const phone = page.getByLabel('Phone Number')
  await phone.waitFor()
  return { page, phone }
}

describe('a phone typed, pasted or autofilled with its country code', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  for (const path of ['/brigit', '/']) {
    for (const [how, enter] of ENTRIES) {
      it(`shows ${SHOWN} on ${path} when ${how} as ${WITH_COUNTRY_CODE}`, async () => {
        const { page, phone } = await openForm(browser, path)
        await enter(page, phone, WITH_COUNTRY_CODE)

        expect(await phone.inputValue()).toBe(SHOWN)
      })
    }
  }

  it.each(['15558675309', '1-555-867-5309', '+15558675309', '555.867.5309', '1 (555) 867-5309'])(
    'shows %j autofilled on /brigit as (555) 867-5309',
    async (writing) => {
      const { phone } = await openForm(browser, '/brigit')
      await phone.fill(writing)

      expect(await phone.inputValue()).toBe(SHOWN)
    },
  )

  for (const path of ['/brigit', '/']) {
    it(`shows every digit of 12345678901234 typed key by key on ${path}, the leading 1 included`, async () => {
      const { phone } = await openForm(browser, path)
      await phone.pressSequentially('12345678901')
      expect(await phone.inputValue()).toBe('(234) 567-8901')
      await phone.pressSequentially('234')

      expect(await phone.inputValue()).toBe('12345678901234')
    })
  }

  it('shows every digit of +12345678901234 typed key by key, its +1 included', async () => {
    const { phone } = await openForm(browser, '/brigit')
    await phone.pressSequentially('+12345678901234')

    expect(await phone.inputValue()).toBe('+12345678901234')
  })

  it('keeps a typed +1 in front while the number is being typed', async () => {
    const { phone } = await openForm(browser, '/brigit')
    await phone.pressSequentially('+1 (555) 8')

    expect(await phone.inputValue()).toBe('+1 (555) 8')
  })

  it('deletes digits naturally: from the end, in the middle, over a space, and all at once', async () => {
    const { page, phone } = await openForm(browser, '/brigit')
    await phone.fill(WITH_COUNTRY_CODE)

    for (let i = 0; i < 4; i++) await phone.press('Backspace')
    expect(await phone.inputValue()).toBe('(555) 867')

    // caret before the 8: Backspace over the space deletes the 5 before it, the caret stays there
    await phone.press('Home')
    for (let i = 0; i < 6; i++) await phone.press('ArrowRight')
    await phone.press('Backspace')
    expect(await phone.inputValue()).toBe('(558) 67')
    await page.keyboard.type('2')
    expect(await phone.inputValue()).toBe('(552) 867')

    await phone.press('End')
    await page.keyboard.type('5309')
    expect(await phone.inputValue()).toBe('(552) 867-5309')

    await phone.selectText()
    await phone.press('Backspace')
    expect(await phone.inputValue()).toBe('')
  })

  it('refuses an impossible number with the form’s phone message', async () => {
    const { page, phone } = await openForm(browser, '/brigit')
    await phone.pressSequentially('(155) 867-5309')
    await phone.blur()

    await shown(page.getByText('Please enter a valid 10-digit phone number'))
  })

  it('asks phones to fill the contact fields with their autocomplete tokens and the phone keypad', async () => {
    const { page, phone } = await openForm(browser, '/')
    expect(await phone.getAttribute('autocomplete')).toBe('tel')
    expect(await phone.getAttribute('inputmode')).toBe('tel')
    const tokens: [string | RegExp, string][] = [
      ['First Name', 'given-name'],
      ['Last Name', 'family-name'],
      ['Email Address', 'email'],
      [/^Address\W*$/, 'address-line1'],
      ['City', 'address-level2'],
      [/^State\W*$/, 'address-level1'],
      ['ZIP Code', 'postal-code'],
    ]
    for (const [label, token] of tokens) {
      expect(await page.getByLabel(label).getAttribute('autocomplete'), String(label)).toBe(token)
    }

    const step2 = await openForm(browser, '/brigit')
    expect(await step2.phone.getAttribute('autocomplete')).toBe('tel')
    expect(await step2.page.getByLabel('Email Address').getAttribute('autocomplete')).toBe('email')
  })

  it('files a claim typed with +1, stores (555) 867-5309, and finds it at /view-agreement however the phone is typed there', async () => {
    const { page } = await openForm(browser, '/brigit')
    await fillClaim(page, { email: 'jenny.plusone@example.com', phoneDigits: WITH_COUNTRY_CODE })
    await submitButton(page, 'Brigit').click()
    await page.waitForURL('**/brigit-success')

    const rows = queryDb<{ phone_number: string }>(
      'SELECT phone_number FROM claims WHERE email = ?',
      'jenny.plusone@example.com',
    )
    expect(rows).toEqual([{ phone_number: SHOWN }])

    await page.goto(`${baseUrl()}/view-agreement`)
    await page.getByLabel('Email Address').fill('jenny.plusone@example.com')
    await page.getByLabel('Phone Number').pressSequentially('1-555-867-5309')
    expect(await page.getByLabel('Phone Number').inputValue()).toBe(SHOWN)
    const link = await linkMailedAfter('jenny.plusone@example.com', () => pressFind(page))
    await page.goto(link)
    await shown(page.getByRole('heading', { name: 'Agreement Found!' }))
  })
})
