import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, openPhonePage, shown } from '../browser.ts'

describe('the signature pad of /, fetched after the fields above it', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('comes once the claimant scrolls to it, with its help, its pad and the way to type instead', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/`)
    await page.getByLabel('First Name').waitFor()
    await page.locator('.signature').scrollIntoViewIfNeeded()
    await shown(page.getByRole('img', { name: /^Signature pad/ }))
    await shown(page.getByText(/^Draw your signature in the box/))
    await shown(page.getByRole('button', { name: 'Type your signature instead' }))
    expect(pageErrors).toEqual([])
  })

  it('says to reload when its code cannot be fetched, and the fields stay as they are', async () => {
    const { page } = await openPhonePage(browser)
    await page.route('**/assets/signature-field-*.js', (route) => route.abort())
    await page.goto(`${baseUrl()}/`)
    await page.getByLabel('First Name').fill('Leilani')
    await page.locator('.signature').scrollIntoViewIfNeeded()
    await shown(
      page.getByRole('alert').getByText('The signature pad could not be loaded. Please reload the page.'),
    )
    expect(await page.getByLabel('First Name').inputValue()).toBe('Leilani')
    expect(await page.getByRole('img', { name: /^Signature pad/ }).count()).toBe(0)
  })
})
