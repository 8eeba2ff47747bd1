import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, shown } from '../browser.ts'
import { fileEarninClaim, requestAgreementLink } from './agreement-link.ts'

describe('a claimant with accented letters downloads their agreement under their own name', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('saves José Peña-Núñez’s agreement as José-Peña-Núñez-agreement.pdf', async () => {
    const person = {
      firstName: 'José',
      lastName: 'Peña-Núñez',
      email: 'jose.pena-nunez@example.com',
      phoneNumber: '(702) 555-0177',
    }
    await fileEarninClaim(person)
    const page = await (await browser.newContext()).newPage()
    await page.goto(`${baseUrl()}/view-agreement`)
    const link = await requestAgreementLink(page, { email: person.email, phone: '7025550177' })
    await page.goto(link)
    await shown(page.getByRole('heading', { name: 'Agreement Found!' }))

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download your Earnin agreement (PDF)' }).click(),
    ])
    expect(download.suggestedFilename()).toBe('José-Peña-Núñez-agreement.pdf')
  })
})
