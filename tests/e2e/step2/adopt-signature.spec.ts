import type { Browser, Locator } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { arriveOrSayWhy } from '../arrivals.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown } from '../browser.ts'
import { fillIntake, submitButton as submitIntakeButton } from '../intake/fill-intake.ts'
import { tabTo } from '../keyboard.ts'
import { SCREENSHOT_PNG } from './fill-claim.ts'

// A claimant who signed the main form takes that signature for their Earnin agreement with one press
// of a keyboard key, from /thank-you's button: nothing is drawn twice.

const CLAIMANT = {
  firstName: 'Keola',
  lastName: 'Akana',
  email: 'adopt.signature.01@example.com',
  phoneDigits: '4795550601',
}
const ADOPT = 'Use the signature from my main form'

const isFocused = (locator: Locator) => locator.evaluate((element) => element === document.activeElement)

describe('a Step 2 claim adopts the main form’s signature', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('files with the main form’s signature after one key press on its button (390 px, axe clean)', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    try {
      const page = await context.newPage()
      const pageErrors: string[] = []
      page.on('pageerror', (error) => pageErrors.push(error.message))
      await page.goto(`${baseUrl()}/`)
      await fillIntake(page, { apps: ['Earnin'], ...CLAIMANT })
      await submitIntakeButton(page).click()
      await page.waitForURL(`${baseUrl()}/thank-you`)
      await page.getByRole('link', { name: 'File your Earnin claim' }).click()
      await page.waitForURL(/\/earnin(#|$)/)
      await expect
        .poll(() => page.getByLabel('First Name').inputValue(), { timeout: 10_000 })
        .toBe(CLAIMANT.firstName)
      await shown(page.getByRole('button', { name: 'Submit Earnin Claim' }), 30_000)

      await page.getByLabel('How many times did you take cash advances?').selectOption({ label: '3 times' })
      await page.getByLabel('How many months were you a member?').selectOption({ label: '12 months' })
      await page.getByLabel('Bank Statement Screenshot').setInputFiles(SCREENSHOT_PNG)
      const adopt = page.getByRole('button', { name: ADOPT })
      await shown(adopt)
      await keepScreenshot(page, 'adopt-signature-390-offered')
      await page.getByLabel('Bank Statement Screenshot').focus()
      // Tab from the field before it, as a keyboard user goes, to the button, then Enter
      await tabTo(page, 'button.link-button')
      for (let presses = 0; presses < 5 && !(await isFocused(adopt)); presses++) {
        await page.keyboard.press('Tab')
      }
      expect(await isFocused(adopt)).toBe(true)
      await page.keyboard.press('Enter')
      // the press is said where focus lands, and can be undone by drawing or typing
      const note = page.getByText('✓ This agreement will be signed with the signature from your main form.')
      await shown(note)
      expect(await isFocused(note)).toBe(true)
      await shown(page.getByRole('button', { name: 'Draw your signature instead' }))
      await shown(page.getByRole('button', { name: 'Type your signature instead' }))
      expect(await adopt.count()).toBe(0)
      expect(await axeViolations(page)).toEqual([])
      await keepScreenshot(page, 'adopt-signature-390-adopted')

      await page.getByRole('button', { name: 'Submit Earnin Claim' }).click()
      await arriveOrSayWhy(page, { url: '**/earnin-success', what: 'claim' })

      const stored = queryDb<{ signature_method: string; adopted_from: string; same: number }>(
        `SELECT r.signature_method, r.adopted_from, r.signature = f.signature AS same
         FROM claims c JOIN agreement_records r ON r.claim_id = c.id
         JOIN form_submissions f ON f.id = c.intake_id
         WHERE c.app = 'earnin' AND c.email = ?`,
        CLAIMANT.email,
      )
      expect(stored).toEqual([
        { signature_method: 'adopted', adopted_from: expect.stringMatching(/^IN-\d{6}$/), same: 1 },
      ])
      expect(pageErrors).toEqual([])
    } finally {
      await context.close()
    }
  })

  it('offers no main-form signature on a form opened without a Step 2 link', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    try {
      const page = await context.newPage()
      await page.goto(`${baseUrl()}/earnin`)
      await shown(page.getByRole('button', { name: 'Type your signature instead' }), 30_000)
      expect(await page.getByRole('button', { name: ADOPT }).count()).toBe(0)
    } finally {
      await context.close()
    }
  })
})
