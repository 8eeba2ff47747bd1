import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, openPhonePage, shown } from '../browser.ts'
import { drawSignature, fillClaim, SCREENSHOT_PNG, submitButton } from './fill-claim.ts'

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
const HINT =
  'Please complete all required fields, upload a screenshot, and provide your signature to enable submission'

describe('the Step 2 form guides the claimant', () => {
  let browser: Browser
  let page: Page
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })
  beforeEach(async () => {
    page = (await openPhonePage(browser)).page
    await page.goto(`${baseUrl()}/albert`)
    await page.getByLabel('First Name').waitFor()
  })

  it('keeps Submit disabled with the hint until everything is filled, then enables it', async () => {
    expect(await submitButton(page, 'Albert').isDisabled()).toBe(true)
    await shown(page.getByText(HINT))
    await fillClaim(page, { phoneDigits: '4155550199' })
    await expect.poll(() => submitButton(page, 'Albert').isEnabled()).toBe(true)
    expect(await page.getByText(HINT).count()).toBe(0)
  })

  it('offers 1 time to 50+ times and 1 month to 36+ months, starting at 1', async () => {
    const advances = page.getByLabel('How many times did you take cash advances?')
    const months = page.getByLabel('How many months were you a member?')
    const advanceLabels = await advances.locator('option').allTextContents()
    const monthLabels = await months.locator('option').allTextContents()
    expect(advanceLabels).toHaveLength(50)
    expect([advanceLabels[0], advanceLabels[1], advanceLabels[49]]).toEqual([
      '1 time',
      '2 times',
      '50+ times',
    ])
    expect(monthLabels).toHaveLength(36)
    expect([monthLabels[0], monthLabels[35]]).toEqual(['1 month', '36+ months'])
    expect(await advances.inputValue()).toBe('1')
    expect(await months.inputValue()).toBe('1')
  })

  it('shows a field message when the field is left invalid and clears it as soon as it is edited', async () => {
    const email = page.getByLabel('Email Address')
    await email.fill('not-an-email')
    await email.blur()
    await shown(page.getByText('Please enter a valid email address'))
    await email.press('End')
    await email.pressSequentially('@x')
    expect(await page.getByText('Please enter a valid email address').count()).toBe(0)

    // tabbing past an untouched field says nothing; changing it and leaving it wrong does
    await page.getByLabel('First Name').focus()
    await page.getByLabel('First Name').blur()
    expect(await page.getByText('First name is required').count()).toBe(0)
    await page.getByLabel('First Name').fill('A')
    await page.getByLabel('First Name').fill('')
    await page.getByLabel('First Name').blur()
    await shown(page.getByText('First name is required'))
  })

  it('formats the phone as it is typed, and shows a digit too many rather than dropping it', async () => {
    const phone = page.getByLabel('Phone Number')
    await phone.pressSequentially('41')
    expect(await phone.inputValue()).toBe('(41')
    await phone.pressSequentially('5555')
    expect(await phone.inputValue()).toBe('(415) 555')
    await phone.pressSequentially('0123')
    expect(await phone.inputValue()).toBe('(415) 555-0123')
    await phone.pressSequentially('9')
    expect(await phone.inputValue()).toBe('41555501239')
    await phone.press('Backspace')
    expect(await phone.inputValue()).toBe('(415) 555-0123')
  })

  it('refuses, when it is picked, a file that is not a PNG or JPEG by its bytes and one over 10 MB, keeping neither', async () => {
    const upload = page.getByLabel('Bank Statement Screenshot')
    await upload.setInputFiles({
      name: 'statement.pdf',
      mimeType: 'application/pdf',
      buffer: Buffer.from('%PDF-1.4'),
    })
    await shown(page.getByText('Please upload an image file'))
    await upload.setInputFiles(SCREENSHOT_PNG)
    await shown(page.getByRole('img', { name: 'Selected bank statement screenshot' }))
    expect(await page.getByText('Please upload an image file').count()).toBe(0)
    // a GIF named and typed as a PNG: refused by its first bytes, and the PNG picked before is let go too
    await upload.setInputFiles({
      name: 'statement.png',
      mimeType: 'image/png',
      buffer: Buffer.from('GIF89a'),
    })
    await shown(page.getByText('Please upload an image file'))
    await shown(page.getByText('No file chosen yet'))
    expect(await page.getByRole('img', { name: 'Selected bank statement screenshot' }).count()).toBe(0)
    expect(await upload.evaluate((input: HTMLInputElement) => input.files?.length)).toBe(0)
    // made in the page: sending 10 MB to the browser over the test's connection takes seconds
    await upload.evaluate(
      (input: HTMLInputElement, signature) => {
        const bytes = new Uint8Array(10 * 1024 * 1024 + 1)
        bytes.set(signature)
        const files = new DataTransfer()
        files.items.add(new File([bytes], 'huge.png', { type: 'image/png' }))
        input.files = files.files
        input.dispatchEvent(new Event('change', { bubbles: true }))
      },
      [...PNG_SIGNATURE],
    )
    await shown(page.getByText('File size must be less than 10MB'))
    expect(await page.getByText('Please upload an image file').count()).toBe(0)
  })

  it('captures the signature when a stroke ends and removes it with Clear Signature', async () => {
    await drawSignature(page)
    await shown(page.getByText('Signature captured'))
    await page.getByRole('button', { name: 'Clear Signature' }).click()
    expect(await page.getByText('Signature captured').count()).toBe(0)
  })

  it('shows Submitting... and a progress bar that reaches 100% before the success page', async () => {
    await fillClaim(page, { phoneDigits: '4155550123' })
    await page.evaluate(() => {
      const seen: string[] = []
      ;(window as unknown as { progressSeen: string[] }).progressSeen = seen
      new MutationObserver(() => {
        const bar = document.querySelector('[role="progressbar"]')
        const value = bar?.getAttribute('aria-valuenow')
        if (value && seen.at(-1) !== value) seen.push(value)
      }).observe(document.body, { subtree: true, childList: true, attributes: true })
    })
    await submitButton(page, 'Albert').click()
    await page.getByRole('button', { name: 'Submitting...' }).waitFor()
    await page.getByText('100%').waitFor()
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen)
    expect(seen.at(-1)).toBe('100')
    await page.waitForURL('**/albert-success')
  })
})
