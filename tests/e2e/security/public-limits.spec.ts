import fs from 'node:fs'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOwnServer, type OwnServer } from '../own-server.ts'
import { connectBrowser, openPhonePage, queryDbIn, shown } from '../browser.ts'
import { fillClaim, submitButton } from '../step2/fill-claim.ts'

// the classic 1×1 transparent GIF: an image, but not the PNG or JPG the form asks for
const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64')

describe('the claim form past the limits, and with a picture it does not take', () => {
  let browser: Browser
  let server: OwnServer

  beforeAll(async () => {
    // one claim per 15 minutes from this browser's address
    server = await startOwnServer('limits', { PUBLIC_LIMIT_PER_ADDRESS: '1' })
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('takes the first claim, and tells the claimant of the second to wait, storing nothing', async () => {
    const first = await openPhonePage(browser)
    await first.page.goto(`${server.url}/brigit`)
    await fillClaim(first.page, { phoneDigits: '5552230001', email: 'first@example.com' })
    await submitButton(first.page, 'Brigit').click()
    await first.page.waitForURL(/\/brigit-success$/)

    const second = await openPhonePage(browser)
    await second.page.goto(`${server.url}/brigit`)
    await fillClaim(second.page, { phoneDigits: '5552230002', email: 'second@example.com' })
    await submitButton(second.page, 'Brigit').click()
    expect(await shown(second.page.getByRole('alert'))).toBe(
      'Too many submissions from your connection. Please wait 15 minutes and try again.',
    )
    expect(second.pageErrors).toEqual([])
    const rows = queryDbIn(server.dataDir, 'SELECT email FROM claims ORDER BY id')
    expect(rows).toEqual([{ email: 'first@example.com' }])
  })

  it('offers only PNG and JPG, and names a GIF picked anyway with the form’s message', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${server.url}/brigit`)
    const picker = page.getByLabel('Bank Statement Screenshot')
    expect(await picker.getAttribute('accept')).toBe('image/png,image/jpeg')
    const gif = path.join(server.workDir, 'statement.gif')
    fs.writeFileSync(gif, GIF)
    await picker.setInputFiles(gif)
    await shown(page.getByText('Please upload an image file'))
  })
})
