import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, openPhonePage, queryDb, shown } from '../browser.ts'
import { focusedDescription, tabTo, typeText } from '../keyboard.ts'
import { SCREENSHOT_PNG } from './fill-claim.ts'

interface StoredSigning {
  first_name: string
  phone_number: string
  signature_method: string
  typed_signature: string | null
  signature: string
}

/** Chooses the screenshot with the keyboard: Enter on the focused picker opens the file chooser. */
async function pickScreenshotByKeyboard(page: Page): Promise<void> {
  // listening well before the key press: Playwright turns on Chromium's chooser interception
  // asynchronously, and a chooser opened before it is on never reaches the test
  const chooser = page.waitForEvent('filechooser')
  await tabTo(
    page,
    'input[type="file"], [data-field="screenshotFile"] button, label[for="root_screenshotFile"]',
  )
  // the browser's own file input has focus (invisible, over our button): Enter opens its chooser
  expect(await page.evaluate(() => document.activeElement?.id)).toBe('root_screenshotFile')
  await page.keyboard.press('Enter')
  await (await chooser).setFiles(SCREENSHOT_PNG)
}

describe('a claimant completes the Step 2 form with the keyboard alone', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('tabs through every field, signs by typing the name, submits, and the claim is stored', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/brigit`)
    await page.getByTestId('agreement-text').waitFor()

    await tabTo(page, '#root_firstName')
    await typeText(page, 'Ana')
    await tabTo(page, '#root_lastName')
    await typeText(page, 'López')
    await tabTo(page, '#root_email')
    await typeText(page, 'ana.keyboard@example.com')
    await tabTo(page, '#root_phoneNumber')
    await typeText(page, '3105550177')
    await tabTo(page, '#root_cashAdvanceCount')
    await page.keyboard.press('ArrowDown')
    await tabTo(page, '#root_membershipMonths')
    await page.keyboard.press('ArrowDown')
    await pickScreenshotByKeyboard(page)

    // the pad takes focus and says how to sign, including the other way
    await tabTo(page, 'canvas#root_signature')
    expect(await focusedDescription(page)).toMatch(/Draw your signature.*Type your signature instead/)
    await tabTo(page, 'button.link-button')
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Type your signature instead')
    await page.keyboard.press('Enter')
    await page.waitForFunction(() => document.activeElement?.id === 'root_signature')
    await typeText(page, 'Ana López')
    await shown(page.getByText('✓ Signature captured'))
    await shown(page.getByTestId('agreement-text').getByRole('img', { name: 'Signature' }))

    await tabTo(page, 'button.submit[type="submit"]')
    await page.keyboard.press('Enter')
    await page.waitForURL('**/brigit-success')
    await shown(page.getByRole('heading', { name: 'Thank You' }))

    const [claim] = queryDb<StoredSigning>(
      `SELECT c.first_name, c.phone_number, r.signature_method, r.typed_signature, r.signature
       FROM claims c JOIN agreement_records r ON r.claim_id = c.id WHERE c.email = ?`,
      'ana.keyboard@example.com',
    )
    expect(claim).toMatchObject({
      first_name: 'Ana',
      phone_number: '(310) 555-0177',
      signature_method: 'typed',
      typed_signature: 'Ana López',
    })
    expect(claim!.signature).toMatch(/^data:image\/png;base64,/)
    expect(pageErrors).toEqual([])
  })

  it('submitting an empty form moves focus to the first field and names it; tabbing past fields shows no message', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/brigit`)
    await page.getByTestId('agreement-text').waitFor()

    // the whole form tabbed through, nothing typed: no message
    await tabTo(page, 'button.submit[type="submit"]')
    expect(await page.locator('.field-error, .error-detail li').count()).toBe(0)
    expect(await focusedDescription(page)).toBe(
      'Please complete all required fields, upload a screenshot, and provide your signature to enable submission',
    )

    await page.keyboard.press('Enter')
    expect(await shown(page.getByRole('alert'))).toBe('Please complete First Name: First name is required')
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('root_firstName')
  })

  it('drawing on the keyboard-focused pad, then clearing it, leaves the signature missing', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/brigit`)
    await page.getByTestId('agreement-text').waitFor()
    await tabTo(page, 'canvas#root_signature')
    const box = (await page.locator('canvas#root_signature').boundingBox())!
    await page.mouse.move(box.x + 30, box.y + box.height / 2)
    await page.mouse.down()
    await page.mouse.move(box.x + 200, box.y + 30, { steps: 8 })
    await page.mouse.up()
    await shown(page.getByText('✓ Signature captured'))
    await tabTo(page, '.signature-pad-area + .signature-actions button')
    await page.keyboard.press('Enter')
    expect(await page.getByText('✓ Signature captured').count()).toBe(0)

    await tabTo(page, 'button.submit[type="submit"]')
    await page.keyboard.press('Enter')
    // first missing is First Name; the signature is listed missing with the rest
    await shown(page.getByText('Please provide your signature'))
  })
})
