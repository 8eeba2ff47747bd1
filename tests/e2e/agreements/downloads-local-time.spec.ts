import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, keepScreenshot, shown } from '../browser.ts'
import { fileEarninClaim, requestAgreementLink } from './agreement-link.ts'

// a phone and an e-mail no other spec uses
const PERSON = {
  firstName: 'Rosa',
  lastName: 'Zonal',
  email: 'rosa.zonal@example.com',
  phoneNumber: '(702) 555-0377',
}

describe('the opened agreements say until when they download in the claimant’s own time, not UTC', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
    await fileEarninClaim(PERSON)
  })
  afterAll(async () => {
    await browser.close()
  })

  for (const { timezoneId, zone, width } of [
    { timezoneId: 'America/Los_Angeles', zone: /P[SD]T/, width: 390 },
    { timezoneId: 'America/New_York', zone: /E[SD]T/, width: 1280 },
  ]) {
    it(`shows the time in ${timezoneId} to a browser there, at ${width} px`, async () => {
      const context = await browser.newContext({
        viewport: { width, height: 844 },
        timezoneId,
        locale: 'en-US',
      })
      const page = await context.newPage()
      await page.goto(`${baseUrl()}/view-agreement`)
      await page.goto(await requestAgreementLink(page, { email: PERSON.email, phone: '702-555-0377' }))
      const line = await shown(page.getByText(/^You can download these agreements until /))
      const time = /until (\d{1,2}:\d{2} [AP]M \S+)\./.exec(line)?.[1]
      expect(time).toMatch(zone)
      expect(line).not.toContain('UTC')
      await keepScreenshot(page, `agreement-downloads-until-${width}`)
      await context.close()
    })
  }
})
