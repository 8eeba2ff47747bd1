import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, openPhonePage, queryDb, shown } from '../browser.ts'
import { axeViolations } from '../accessibility/axe.ts'
import { focusedDescription, tabTo, typeText } from '../keyboard.ts'
import { drawSignature, SCREENSHOT_PNG, submitButton } from './fill-claim.ts'
import { requestAgreementLink } from '../agreements/agreement-link.ts'

interface StoredSigning {
  signature_method: string
  typed_signature: string | null
  signature: string
}

const PAD = 'canvas#root_signature'
const PNG_MAGIC = '89504e470d0a1a0a'
const KEYBOARD_HINT = 'Can’t draw? Press Enter to type your name instead.'

/** The focused element's visible text, or for a field its id. */
function focusedText(page: Page): Promise<string | undefined> {
  return page.evaluate(() => document.activeElement?.textContent?.trim())
}

/** Everything but the signature, filled directly (the keyboard-only walk-through is its own spec). */
async function fillOtherFields(page: Page, { email, phoneDigits }: { email: string; phoneDigits: string }) {
  await page.getByLabel('First Name').fill('Ana')
  await page.getByLabel('Last Name').fill('López')
  await page.getByLabel('Email Address').fill(email)
  await page.getByLabel('Phone Number').fill(phoneDigits)
  await page.getByLabel('How many times did you take cash advances?').selectOption({ label: '3 times' })
  await page.getByLabel('How many months were you a member?').selectOption({ label: '12 months' })
  await page.getByLabel('Bank Statement Screenshot').setInputFiles(SCREENSHOT_PNG)
}

function storedSigning(email: string): StoredSigning | undefined {
  return queryDb<StoredSigning>(
    `SELECT r.signature_method, r.typed_signature, r.signature
     FROM claims c JOIN agreement_records r ON r.claim_id = c.id WHERE c.email = ?`,
    email,
  )[0]
}

function agreementSignature(page: Page) {
  return page.getByTestId('agreement-text').getByRole('img', { name: 'Signature' })
}

describe('signing the Step 2 form: the pad takes focus, and a typed name signs too', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('reaches the pad by keyboard, types the name instead, and the claim is stored as typed', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    const fontRequests: string[] = []
    page.on('request', (request) => {
      if (/dancing-script/.test(request.url())) fontRequests.push(request.url())
    })
    await page.goto(`${baseUrl()}/brigit`)
    await page.getByTestId('agreement-text').waitFor()
    // read before it is signed: the agreement, then the field's label, then the pad
    const label = page.locator('label[for="root_signature"]')
    const agreementBox = (await page.getByTestId('agreement-text').boundingBox())!
    const labelBox = (await label.boundingBox())!
    const padBox = (await page.locator(PAD).boundingBox())!
    expect(agreementBox.y + agreementBox.height).toBeLessThan(labelBox.y)
    expect(labelBox.y + labelBox.height).toBeLessThan(padBox.y)
    expect(await label.innerText()).toBe('Signature*')

    await tabTo(page, PAD)
    expect(
      await page
        .getByRole('img', { name: /^Signature pad/ })
        .evaluate((pad) => pad === document.activeElement),
    ).toBe(true)
    expect(await focusedDescription(page)).toBe(
      'Draw your signature in the box with your finger, a mouse or a pen. If you cannot draw, choose “Type your signature instead”. ' +
        KEYBOARD_HINT,
    )
    expect(await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle)).toBe('solid')
    await shown(page.getByText(KEYBOARD_HINT))
    // a drawn signature never needs the signature font
    expect(fontRequests).toEqual([])

    await page.keyboard.press('Tab')
    expect(await focusedText(page)).toBe('Clear Signature')
    await page.keyboard.press('Tab')
    expect(await focusedText(page)).toBe('Type your signature instead')
    await page.keyboard.press('Enter')

    await page.waitForFunction(() => document.activeElement?.matches('input#root_signature') ?? false)
    expect(await focusedDescription(page)).toBe(
      'Type your full name as your signature. It is shown in a signature style.',
    )
    await typeText(page, 'Ana López')
    await shown(page.getByText('✓ Signature captured'))
    const preview = agreementSignature(page)
    await shown(preview)
    expect(await preview.getAttribute('src')).toMatch(/^data:image\/png;base64,/)
    expect(await preview.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0)
    // the font is this site's own, loaded now that it is needed
    expect(fontRequests.length).toBeGreaterThan(0)
    expect(fontRequests.every((url) => url.startsWith(baseUrl()))).toBe(true)

    await fillOtherFields(page, { email: 'ana.typed@example.com', phoneDigits: '3105550181' })
    await submitButton(page, 'Brigit').click()
    await page.waitForURL('**/brigit-success')

    const stored = storedSigning('ana.typed@example.com')
    expect(stored).toMatchObject({ signature_method: 'typed', typed_signature: 'Ana López' })
    const png = Buffer.from(stored!.signature.replace(/^data:image\/png;base64,/, ''), 'base64')
    expect(png.subarray(0, 8).toString('hex')).toBe(PNG_MAGIC)

    // the claimant finds it signed the way they signed
    await page.goto(`${baseUrl()}/view-agreement`)
    await page.goto(await requestAgreementLink(page, { email: 'ana.typed@example.com', phone: '3105550181' }))
    await shown(page.getByText('typing the full name "Ana López", shown in a signature style'))
    expect(pageErrors).toEqual([])
  })

  it('draws Latin Extended and Vietnamese names in the signature font, and goes back to the pad', async () => {
    // axe needs a page of its own context
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${baseUrl()}/brigit`)
    await page.getByTestId('agreement-text').waitFor()
    // Enter on the focused pad, as its hint says, goes to the typed name
    await tabTo(page, PAD)
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.activeElement?.matches('input#root_signature') ?? false)
    await typeText(page, 'Łukasz Nguyễn')
    await shown(agreementSignature(page))
    // Ł needs the Latin Extended face and ễ the Vietnamese one: both are fetched, neither left to a plain font
    await page.waitForFunction(() => {
      const ranges = [...document.fonts]
        .filter((face) => face.family.replace(/"/g, '') === 'Dancing Script' && face.status === 'loaded')
        .map((face) => face.unicodeRange)
      return (
        ranges.some((range) => /U\+100-2BA/i.test(range)) &&
        ranges.some((range) => /U\+1EA0-1EF9/i.test(range))
      )
    })

    // the typed mode meets WCAG 2.1 AA as the pad does (claimant-pages.spec.ts checks the page as loaded)
    expect(await axeViolations(page)).toEqual([])

    await tabTo(page, '.signature button.link-button')
    expect(await focusedText(page)).toBe('Draw your signature instead')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.activeElement?.matches('canvas#root_signature') ?? false)
    expect(await page.getByText('✓ Signature captured').count()).toBe(0)
    expect(await agreementSignature(page).count()).toBe(0)
    expect(pageErrors).toEqual([])
    await context.close()
  })

  it('draws with the mouse on the keyboard-focused pad, clears it, draws again, and the claim is stored as drawn', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/brigit`)
    await page.getByTestId('agreement-text').waitFor()
    await tabTo(page, PAD)

    await drawSignature(page)
    await shown(agreementSignature(page))
    await page.keyboard.press('Tab')
    expect(await focusedText(page)).toBe('Clear Signature')
    await page.keyboard.press('Enter')
    expect(await page.getByText('✓ Signature captured').count()).toBe(0)
    expect(await agreementSignature(page).count()).toBe(0)

    await drawSignature(page)
    await shown(agreementSignature(page))

    await fillOtherFields(page, { email: 'ana.drawn@example.com', phoneDigits: '3105550182' })
    await submitButton(page, 'Brigit').click()
    await page.waitForURL('**/brigit-success')
    expect(storedSigning('ana.drawn@example.com')).toMatchObject({
      signature_method: 'drawn',
      typed_signature: null,
      signature: expect.stringMatching(/^data:image\/png;base64,/),
    })
    expect(pageErrors).toEqual([])
  })
})
