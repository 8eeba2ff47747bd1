import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, shown } from '../browser.ts'

// The agreement stands before the signature on every form: read (and tabbed through) before the pad,
// at full height in the page on a phone rather than in a small box to scroll.

const AGREEMENT = 'Attorney-Client Contingency Fee Agreement'
const PAD = 'canvas#root_signature'

describe('the agreement is read before it is signed', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })

  for (const { form, path, submit } of [
    { form: 'the main intake', path: '/', submit: 'Submit My Claim' },
    { form: 'the Earnin Step 2 form', path: '/earnin', submit: 'Submit Earnin Claim' },
  ]) {
    for (const width of [390, 1280]) {
      it(`shows ${form}'s agreement in full above the signature pad, filled in as the name is typed (${width} px)`, async () => {
        const height = width < 600 ? 844 : 800
        const context = await browser.newContext({ viewport: { width, height } })
        const page = await context.newPage()
        await page.goto(`${baseUrl()}${path}`)
        await page.locator('#root_firstName').fill('Marta')
        await page.locator('#root_lastName').fill('Quispe')
        const region = page.getByRole('region', { name: AGREEMENT })
        const text = page.getByTestId('agreement-text')
        expect(await shown(text)).toContain('Marta Quispe')
        // no button between the claimant and the agreement: it is on the page, not behind a link
        expect(await page.getByRole('button', { name: /read the attorney-client agreement/i }).count()).toBe(
          0,
        )

        const heading = region.getByRole('heading', { name: AGREEMENT })
        await heading.scrollIntoViewIfNeeded()
        const headingBox = (await heading.boundingBox())!
        const padBox = (await page.locator(PAD).boundingBox())!
        expect(headingBox.y + headingBox.height).toBeLessThan(padBox.y)

        const box = await text.evaluate((element) => ({
          height: element.clientHeight,
          scrollHeight: element.scrollHeight,
        }))
        if (width < 600) expect(box.height).toBe(box.scrollHeight)
        else if (box.height < box.scrollHeight) expect(box.height).toBeGreaterThanOrEqual(height * 0.6)

        // Tab goes from the agreement to the signature, and the submit button comes after both
        await text.focus()
        await page.keyboard.press('Tab')
        expect(
          await page.evaluate(() => document.activeElement?.closest('[data-field="signature"]') !== null),
        ).toBe(true)
        const submitButton = page.getByRole('button', { name: submit })
        expect(
          await submitButton.evaluate(
            (button, pad) =>
              (document.querySelector(pad)!.compareDocumentPosition(button) &
                Node.DOCUMENT_POSITION_FOLLOWING) !==
              0,
            PAD,
          ),
        ).toBe(true)

        expect(await axeViolations(page)).toEqual([])
        await heading.scrollIntoViewIfNeeded()
        await keepScreenshot(page, `agreement-before-signature-${path.slice(1) || 'intake'}-${width}`)
        await context.close()
      })
    }
  }
})
