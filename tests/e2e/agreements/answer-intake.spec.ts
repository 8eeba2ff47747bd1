import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, keepScreenshot, proofOfWorkHeaders, queryDb, shown } from '../browser.ts'
import { intakeBody } from '../intake/fill-intake.ts'
import { tabTo } from '../keyboard.ts'
import { fileEarninClaim, requestAgreementLink } from './agreement-link.ts'

// e-mails and phones no other spec uses
const NOT_HER = {
  firstName: 'Imani',
  lastName: 'Okoro',
  email: 'imani.okoro@example.com',
  phoneNumber: '(208) 555-0141',
}
const HER = {
  firstName: 'Femi',
  lastName: 'Okoro',
  email: 'femi.okoro@example.com',
  phoneNumber: '(208) 555-0142',
}
const ADDRESS = {
  address: '48 Orchard Ln',
  addressLine2: 'Unit 3',
  city: 'Boise',
  state: 'ID',
  zipCode: '83702',
}

/** An intake sent with the claimant's e-mail and phone (by them or not), then their Step 2 claim. */
async function intakeAndClaim(person: typeof NOT_HER): Promise<number> {
  const response = await fetch(`${baseUrl()}/api/intake`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(await proofOfWorkHeaders()) },
    body: JSON.stringify(
      intakeBody({
        firstName: person.firstName,
        lastName: person.lastName,
        email: person.email,
        phone: person.phoneNumber,
        ...ADDRESS,
      }),
    ),
  })
  expect(response.status).toBe(201)
  const { id } = (await response.json()) as { id: number }
  await fileEarninClaim(person)
  return id
}

function storedIntake(id: number) {
  return queryDb<{ confirmed_at: string | null; disowned_at: number | null }>(
    'SELECT confirmed_at, disowned_at FROM form_submissions WHERE id = ?',
    id,
  )[0]!
}

describe('a claimant answers for a main-form intake on the page their e-mailed link opens', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  /** A page in a context of its own (axe-core needs one), the claimant's link opened in it. */
  async function openLink(person: typeof NOT_HER, width: number) {
    const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } })
    const page = await context.newPage()
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(`${baseUrl()}/view-agreement`)
    const link = await requestAgreementLink(page, { email: person.email, phone: person.phoneNumber })
    await page.goto(link)
    await shown(page.getByRole('heading', { name: 'Agreement Found!' }))
    return { page, pageErrors }
  }

  const fitsWidth = (page: Page) =>
    page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)

  it('says "This wasn\'t me" with the keyboard alone at 390 px after "Are you sure?", then takes it back', async () => {
    const intakeId = await intakeAndClaim(NOT_HER)
    const reference = `IN-${String(intakeId).padStart(6, '0')}`
    const { page, pageErrors } = await openLink(NOT_HER, 390)

    const question = page.getByRole('region', { name: `${reference}, not confirmed` })
    expect(await shown(question.getByRole('heading'))).toBe(`${reference}, not confirmed`)
    expect(await shown(question.locator('.intake-address'))).toBe('48 Orchard Ln, Unit 3, Boise, ID 83702')
    expect(await question.getByRole('button', { name: 'Confirm it was you' }).count()).toBe(1)
    expect(await fitsWidth(page)).toBe(true)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'intake-question-390')

    await tabTo(page, '.intake-question button.secondary')
    await page.keyboard.press('Enter')
    // asked once: the question takes focus, so the same key pressed again answers nothing
    await shown(page.getByText(/^Are you sure\? Your claims will no longer use /))
    await page.keyboard.press('Enter')
    expect(storedIntake(intakeId).disowned_at).toBeNull()
    await tabTo(page, '.not-me-question button.primary')
    await page.keyboard.press('Enter')

    const answered = `You told us you did not send ${reference}. Your claims no longer use it, and our team will look into it.`
    expect(await shown(page.getByRole('status').filter({ hasText: reference }))).toBe(answered)
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe(answered)
    expect(await page.getByRole('button', { name: "This wasn't me" }).count()).toBe(0)
    expect(await page.getByRole('button', { name: 'Confirm it was you' }).count()).toBe(0)
    expect(storedIntake(intakeId).disowned_at).not.toBeNull()
    expect(
      queryDb<{ intake_id: number | null }>('SELECT intake_id FROM claims WHERE email = ?', NOT_HER.email),
    ).toEqual([{ intake_id: null }])
    expect(await fitsWidth(page)).toBe(true)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'intake-disowned-390')

    // the tab keeps the answer: a reload does not ask again
    await page.reload()
    expect(await shown(page.getByRole('status').filter({ hasText: reference }))).toBe(answered)
    expect(await page.getByRole('button', { name: "This wasn't me" }).count()).toBe(0)

    // pressed by mistake: taken back within the day, and the question is asked again
    await shown(page.getByText(/^You told us on .+ that this wasn’t you\.$/))
    await tabTo(page, '.not-me-answer button')
    await page.keyboard.press('Enter')
    await shown(question.getByRole('button', { name: 'Confirm it was you' }))
    await expect.poll(() => storedIntake(intakeId).disowned_at).toBeNull()
    expect(
      queryDb<{ intake_id: number | null }>('SELECT intake_id FROM claims WHERE email = ?', NOT_HER.email),
    ).toEqual([{ intake_id: intakeId }])
    expect(await axeViolations(page)).toEqual([])
    expect(pageErrors).toEqual([])
  })

  it('confirms it with "Confirm it was you" at 1280 px, and the agreement shows as before', async () => {
    const intakeId = await intakeAndClaim(HER)
    const reference = `IN-${String(intakeId).padStart(6, '0')}`
    const { page, pageErrors } = await openLink(HER, 1280)
    await shown(page.getByRole('heading', { name: `${reference}, not confirmed` }))
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'intake-question-1280')

    await page.getByRole('button', { name: 'Confirm it was you' }).click()

    expect(await shown(page.getByRole('status').filter({ hasText: reference }))).toBe(
      `${reference} is confirmed. Thank you for letting us know it was you.`,
    )
    expect(await page.getByRole('heading', { name: `${reference}, not confirmed` }).count()).toBe(0)
    expect(storedIntake(intakeId).confirmed_at).not.toBeNull()
    // one download a card: the main form's and the claim's
    expect(await page.getByRole('button', { name: /^Download your .+ \(PDF\)$/ }).count()).toBe(2)
    expect(await page.getByRole('button', { name: 'Download your main-form agreement (PDF)' }).count()).toBe(
      1,
    )
    await keepScreenshot(page, 'intake-confirmed-1280')
    expect(pageErrors).toEqual([])
  })
})
