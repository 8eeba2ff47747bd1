import path from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { SQLITE_FILE_NAME } from '../../../server/db/create-db.ts'
import type { Database as Tables } from '../../../server/db/database.ts'
import { giveAward } from '../../server/support/payout-claims.ts'
import { axeViolations } from '../accessibility/axe.ts'
import { requestAgreementLink } from '../agreements/agreement-link.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown } from '../browser.ts'
import { tabTo, typeText } from '../keyboard.ts'
import { fileClaim } from '../seed.ts'

const PERSON = {
  firstName: 'Rosa',
  lastName: 'Mendez',
  email: 'rosa.mendez@example.com',
  phoneDigits: '6025550163',
}

/** The award a claim is given, written into the e2e server's SQLite file as the award import will. */
async function awardClaim(claimId: number): Promise<void> {
  const db = new Kysely<Tables>({
    dialect: new SqliteDialect({ database: new Database(path.join(inject('dataDir'), SQLITE_FILE_NAME)) }),
  })
  try {
    await giveAward(db, { claimId, app: 'brigit', grossCents: 125_000 })
  } finally {
    await db.destroy()
  }
}

/** Tabs to a field and types into it, key by key. */
async function typeInto(page: Page, selector: string, text: string): Promise<void> {
  await tabTo(page, selector)
  await typeText(page, text)
}

describe('a claimant with an award chooses how to be paid and signs the W-9, keyboard only', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('chooses Venmo by phone and sends a W-9 at 390 px, with no axe violations', async () => {
    const claimId = await fileClaim('brigit', PERSON)
    await awardClaim(claimId)
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${baseUrl()}/view-agreement`)
    const link = await requestAgreementLink(page, { email: PERSON.email, phone: PERSON.phoneDigits })
    await page.goto(link)
    await shown(page.getByRole('heading', { name: 'Your payment: Brigit' }))
    const section = page.locator('.your-payment')
    // $1,250.00 less the 40% fee the signed agreement states, 24% held back while no W-9 is on file
    expect(await section.locator('.payout-amounts').innerText()).toMatch(
      /\$1,250\.00[\s\S]*-\$500\.00[\s\S]*\$0\.00[\s\S]*-\$180\.00[\s\S]*\$570\.00/,
    )
    expect(await axeViolations(page)).toEqual([])

    const id = `payout-${claimId}`
    // the radio group: Tab reaches it, the arrow keys choose within it
    await tabTo(page, `#${id}-method`)
    await page.keyboard.press('ArrowDown')
    expect(await page.locator(`#${id}-method-venmo`).isChecked()).toBe(true)
    await tabTo(page, `#${id}-wallet-by`)
    await page.keyboard.press('ArrowDown')
    await typeInto(page, `#${id}-phone`, '6025550199')
    expect(await page.locator(`#${id}-phone`).getAttribute('inputmode')).toBe('tel')
    await page.keyboard.press('Enter')
    await shown(page.getByText('You are paid by: Venmo (••••0199)'))

    const w9 = `w9-${claimId}`
    await typeInto(page, `#${w9}-legalName`, 'Rosa Mendez')
    // a wrong SSN is refused under its field, which takes the focus
    await typeInto(page, `#${w9}-tin`, '666-12-3456')
    expect(await page.locator(`#${w9}-tin`).getAttribute('autocomplete')).toBe('off')
    await typeInto(page, `#${w9}-addressLine1`, '400 W Washington St')
    await typeInto(page, `#${w9}-city`, 'Phoenix')
    await typeInto(page, `#${w9}-state`, 'AZ')
    await typeInto(page, `#${w9}-zip`, '85003')
    await tabTo(page, `#${w9}-isCertified`)
    expect(await page.locator(`#${w9}-isCertified`).isChecked()).toBe(false)
    await page.keyboard.press('Space')
    await typeInto(page, `#${w9}-typedSignature`, 'Rosa Mendez')
    await page.keyboard.press('Enter')
    await shown(page.getByText('This is not a valid Social Security number. Please check it.'))
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`${w9}-tin`)
    await shown(page.getByRole('alert'))
    expect(await axeViolations(page)).toEqual([])

    await page.keyboard.press('Control+A')
    await typeText(page, '234-56-7891')
    await tabTo(page, `#${w9}-isCertified`)
    if (!(await page.locator(`#${w9}-isCertified`).isChecked())) await page.keyboard.press('Space')
    await tabTo(page, `#${w9}-typedSignature`)
    if ((await page.locator(`#${w9}-typedSignature`).inputValue()) === '') await typeText(page, 'Rosa Mendez')
    await page.keyboard.press('Enter')
    await shown(page.getByText('Your W-9 is on file: Rosa Mendez, ••••7891'))
    // with the W-9 on file nothing is held back: $1,250.00 - $500.00 = $750.00
    expect(await section.locator('.payout-amounts').innerText()).toMatch(/\$750\.00/)
    const [stored] = queryDb<{ tin_sealed: string; tin_last4: string }>(
      'SELECT tin_sealed, tin_last4 FROM tax_forms WHERE claim_id = ?',
      claimId,
    )
    expect(stored!.tin_last4).toBe('7891')
    expect(stored!.tin_sealed).not.toContain('234567891')
    expect(await page.locator('body').innerText()).not.toContain('234-56-7891')
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'claimant-payout-390')
    await page.setViewportSize({ width: 1280, height: 900 })
    await keepScreenshot(page, 'claimant-payout-1280')
    expect(pageErrors).toEqual([])
    await context.close()
  })
})
