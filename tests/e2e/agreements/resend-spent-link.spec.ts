import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, shown } from '../browser.ts'
import { tabTo } from '../keyboard.ts'
import { fileEarninClaim, linkMailedAfter, requestAgreementLink } from './agreement-link.ts'

const PERSON = {
  firstName: 'Kofi',
  lastName: 'Asante',
  email: 'kofi.asante@example.com',
  phoneNumber: '(702) 555-0151',
}

/** What a mail app that checks links does before the claimant reads the message: it opens the link. */
async function openAsMailScanner(link: string): Promise<void> {
  const response = await fetch(`${baseUrl()}/api/agreements/open`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token: link.split('#link=')[1] }),
  })
  expect(response.status).toBe(200)
}

describe('a claimant whose mail app opened the link first gets a new one with one press', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('offers a new link on the spent one, sends it to the same address, and the new one opens', async () => {
    await fileEarninClaim(PERSON)
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${baseUrl()}/view-agreement`)
    const link = await requestAgreementLink(page, { email: PERSON.email, phone: '7025550151' })
    await openAsMailScanner(link)

    await page.goto(link)

    expect(await shown(page.getByRole('alert'))).toBe(
      'This link has already been used or has expired. Ask for a new one below.',
    )
    const resend = page.getByRole('button', { name: 'Send me a new link' })
    await shown(resend)
    // whoever holds the link learns nothing of the address it came to; the lookup typed before is cleared
    expect(await page.locator('body').innerText()).not.toContain(PERSON.email)
    expect(await page.locator('#lookup-email').inputValue()).toBe('')
    expect(page.url()).toBe(`${baseUrl()}/view-agreement`)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'agreement-link-spent-offer-1280')

    await tabTo(page, '.spent-link button')
    const fresh = await linkMailedAfter(PERSON.email, async () => {
      await page.keyboard.press('Enter')
      expect(await shown(page.locator('.notice-box[role="status"]'))).toContain(
        'If we hold an agreement for these details, we have sent a link to that email address.',
      )
    })
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Check Your Email')
    expect(await page.getByRole('button', { name: 'Send me a new link' }).count()).toBe(0)
    expect(await page.locator('body').innerText()).not.toContain(PERSON.email)
    await keepScreenshot(page, 'agreement-link-spent-resent-1280')
    expect(fresh).not.toBe(link)

    await page.goto(fresh)
    await shown(page.getByRole('heading', { name: 'Agreement Found!' }))
    expect(pageErrors).toEqual([])
    await context.close()
  })
})
