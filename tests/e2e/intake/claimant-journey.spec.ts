import path from 'node:path'
import Database from 'better-sqlite3'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { SQLITE_FILE_NAME } from '../../../server/db/create-db.ts'
import { mailsTo, plainTextOf } from '../../server/support/agreement-link.ts'
import { requestAgreementLink } from '../agreements/agreement-link.ts'
import {
  baseUrl,
  connectBrowser,
  keepScreenshot,
  openPhonePage,
  proofOfWorkHeaders,
  queryDb,
  shown,
} from '../browser.ts'
import { drawSignature, SCREENSHOT_PNG } from '../step2/fill-claim.ts'
import { fillIntake, intakeBody, submitButton } from './fill-intake.ts'

// an e-mail and phone no other spec uses
const CLAIMANT = { email: 'noelani.journey@example.com', phoneDigits: '8085550466', phone: '(808) 555-0466' }

/** The newest e-mail to the claimant with this subject, once the server has sent it (up to 20 s). */
async function mailWithSubject(subject: string): Promise<string> {
  for (let tries = 0; tries < 200; tries += 1) {
    const found = mailsTo(inject('dataDir'), CLAIMANT.email)
      .reverse()
      .find(({ eml }) => eml.includes(`Subject: ${subject}`))
    if (found) return found.eml
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no e-mail "${subject}" in the outbox`)
}

/** The Step 2 link for `app` in an e-mail. */
function step2Link(eml: string, appName: string): string {
  const link = new RegExp(`File your ${appName} claim: (\\S+#prefill=\\S+)`).exec(plainTextOf(eml))?.[1]
  if (!link) throw new Error(`no ${appName} link in the e-mail`)
  return link
}

/** What the claimant still types on a pre-filled Step 2 form: the counts, the screenshot, the signature. */
async function finishClaim(page: Page, appName: string): Promise<void> {
  expect(await page.getByLabel('First Name').inputValue()).toBe('Noelani')
  expect(await page.getByLabel('Email Address').inputValue()).toBe(CLAIMANT.email)
  expect(await page.getByLabel('Phone Number').inputValue()).toBe(CLAIMANT.phone)
  await page.getByLabel('How many times did you take cash advances?').selectOption({ label: '3 times' })
  await page.getByLabel('How many months were you a member?').selectOption({ label: '12 months' })
  await page.getByLabel('Bank Statement Screenshot').setInputFiles(SCREENSHOT_PNG)
  await drawSignature(page)
  await page.getByRole('button', { name: `Submit ${appName} Claim` }).click()
  await page.waitForURL(/-success$/, { timeout: 30_000 })
}

/** A zone whose clock reads about noon now: the reminder is due in the claimant's daytime. */
function noonZone(): string {
  const offset = 12 - new Date().getUTCHours()
  const hours = offset > 12 ? offset - 24 : offset < -12 ? offset + 24 : offset
  // Etc/GMT's sign is the other way round: Etc/GMT+10 is UTC−10
  return hours === 0 ? 'Etc/GMT' : `Etc/GMT${hours > 0 ? '-' : '+'}${Math.abs(hours)}`
}

describe('a claimant on a phone, from the main form through each Step 2 claim to their status', () => {
  let browser: Browser
  let page: Page
  let pageErrors: string[]

  beforeAll(async () => {
    browser = await connectBrowser()
    ;({ page, pageErrors } = await openPhonePage(browser))
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
  })

  it('signs the main form and gets a reference, a button per app, and an e-mail with the agreement and the links', async () => {
    await page.goto(`${baseUrl()}/`)
    await fillIntake(page, { apps: ['Earnin', 'Chime'], firstName: 'Noelani', ...CLAIMANT })
    await submitButton(page).click()
    await page.waitForURL(`${baseUrl()}/thank-you`)
    const reference = await shown(page.getByText(/^Your reference number is IN-\d{6}\.$/))
    const buttons = page.getByRole('link', { name: /^File your .* claim$/ })
    expect(await buttons.allInnerTexts()).toEqual(['File your Earnin claim', 'File your Chime claim'])
    // the links carry no personal data: an intake id and a signature, in the fragment
    expect(await buttons.first().getAttribute('href')).toMatch(
      /^\/earnin#prefill=p\.\d+\.earnin\.\d+\.[\w-]+$/,
    )
    await keepScreenshot(page, 'journey-thank-you-390')

    const copy = await mailWithSubject('Your signed agreement and your next steps')
    expect(plainTextOf(copy)).toContain(reference)
    expect(copy).toMatch(/Content-Type: application\/pdf/)
    expect(step2Link(copy, 'Chime')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/chime#prefill=/)

    // "Confirm it was you": the page names the intake before the button is pressed
    const confirmLink = /Please confirm it by opening this link: (\S+)/.exec(plainTextOf(copy))?.[1]
    await page.goto(confirmLink!)
    await shown(
      page.getByText(
        new RegExp(
          `^This link is for the claim form you signed on .+, reference ${/IN-\d{6}/.exec(reference)![0]} \\(Earnin, Chime\\)\\.$`,
        ),
      ),
    )
    await keepScreenshot(page, 'journey-confirm-intake-390')
    await page.getByRole('button', { name: 'Confirm it was you' }).click()
    await shown(page.getByText('Your claim is confirmed. Thank you for letting us know it was you.'))

    // the e-mailed Earnin link opens the form with the name and contact filled in
    await page.goto(step2Link(copy, 'Earnin'))
    await shown(page.getByRole('heading', { level: 1 }))
    await expect.poll(() => page.getByLabel('First Name').inputValue(), { timeout: 10_000 }).toBe('Noelani')
    // the token is gone from the address bar once read
    expect(new URL(page.url()).hash).toBe('')
    await keepScreenshot(page, 'journey-step2-prefilled-390')
    await finishClaim(page, 'Earnin')
  })

  it('gets a reminder for the app still to do, files it from there, and sees both claims on the status page', async () => {
    const [intake] = queryDb<{ id: number }>(
      'SELECT id FROM form_submissions WHERE email = ?',
      CLAIMANT.email,
    )
    const [earnin] = queryDb<{ intake_id: number }>(
      "SELECT intake_id FROM claims WHERE app = 'earnin' AND email = ?",
      CLAIMANT.email,
    )
    expect(earnin!.intake_id).toBe(intake!.id)
    // two days pass: the journey is moved back in time, its claimant's clock at noon
    const db = new Database(path.join(inject('dataDir'), SQLITE_FILE_NAME))
    try {
      db.pragma('busy_timeout = 5000')
      db.prepare(
        'UPDATE claimant_journeys SET created_at = ?, due_at = ?, time_zone = ? WHERE intake_id = ?',
      ).run(Date.now() - 2 * 24 * 3600_000 - 60_000, Date.now() - 1000, noonZone(), intake!.id)
    } finally {
      db.close()
    }
    // another claimant's intake wakes the sender, which sends every e-mail due
    const other = await fetch(`${baseUrl()}/api/intake`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...(await proofOfWorkHeaders()) },
      body: JSON.stringify(intakeBody({ email: 'wakes.the.sender@example.com', phone: '(808) 555-0467' })),
    })
    expect(other.status).toBe(201)
    const reminder = await mailWithSubject('Reminder: your claim is not finished')
    expect(plainTextOf(reminder)).toContain('You told us you used Chime, but')
    expect(plainTextOf(reminder)).not.toContain('File your Earnin claim')
    expect(reminder).toMatch(/List-Unsubscribe-Post: List-Unsubscribe=One-Click/)

    await page.goto(step2Link(reminder, 'Chime'))
    await expect.poll(() => page.getByLabel('First Name').inputValue(), { timeout: 10_000 }).toBe('Noelani')
    await finishClaim(page, 'Chime')

    await page.goto(`${baseUrl()}/view-agreement`)
    const link = await requestAgreementLink(page, { email: CLAIMANT.email, phone: CLAIMANT.phoneDigits })
    await page.goto(link)
    const status = page.getByRole('region', { name: 'Where your claims stand' })
    await shown(status.getByText(/^Your reference number is IN-\d{6}\.$/))
    expect(await status.locator('.status-line').allInnerTexts()).toEqual([
      'Earnin Received',
      'Chime Received',
    ])
    expect(await status.getByText('Not filed yet').count()).toBe(0)
    await keepScreenshot(page, 'journey-status-390')
    // a reload keeps the opened link's page for its 30 minutes
    await page.reload()
    await shown(status.getByRole('heading', { name: 'Where your claims stand' }))
    expect(pageErrors).toEqual([])
  })
})
