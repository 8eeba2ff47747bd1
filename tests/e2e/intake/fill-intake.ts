import fs from 'node:fs'
import type { Page } from 'playwright-core'
import { drawSignature, SCREENSHOT_PNG } from '../step2/fill-claim.ts'

export interface IntakeInput {
  apps?: string[]
  fees?: string[]
  isOver18?: 'Yes' | 'No'
  isActiveMilitary?: 'Yes' | 'No'
  hasBankruptcy?: 'Yes' | 'No'
  firstName?: string
  lastName?: string
  email: string
  phoneDigits: string
  state?: string
  /** Ticks the agreement consent unless false: the box starts unticked. */
  agreementConsent?: boolean
  /** Ticks the communications consent unless false: the box starts unticked. */
  communicationsConsent?: boolean
}

export const APPS_QUESTION = 'Which cash advance apps have you used?'
export const FEES_QUESTION = 'Which fees have you paid?'
export const OVER_18_QUESTION = 'Are you 18 years of age or older?'
export const MILITARY_QUESTION = 'Are you an active member of the military?'
export const BANKRUPTCY_QUESTION = 'Have you filed for bankruptcy?'
export const AGREEMENT_CONSENT = /^I agree to the Attorney-Client Agreement/
export const COMMUNICATIONS_CONSENT = /^I agree to receive calls, texts and e-mails/

export function submitButton(page: Page) {
  return page.getByRole('button', { name: 'Submit My Claim' })
}

/** Clicks, types, picks and draws the way a person does; leaves the submit button alone. */
export async function fillIntake(page: Page, input: IntakeInput): Promise<void> {
  const apps = page.getByRole('group', { name: APPS_QUESTION })
  for (const app of input.apps ?? ['Earnin', 'Chime']) await apps.getByLabel(app, { exact: true }).click()
  const fees = page.getByRole('group', { name: FEES_QUESTION })
  for (const fee of input.fees ?? ['Subscription Fee', 'Tips'])
    await fees.getByLabel(fee, { exact: true }).click()
  await answer(page, OVER_18_QUESTION, input.isOver18 ?? 'Yes')
  await answer(page, MILITARY_QUESTION, input.isActiveMilitary ?? 'No')
  await answer(page, BANKRUPTCY_QUESTION, input.hasBankruptcy ?? 'No')
  await page.getByLabel('First Name').fill(input.firstName ?? 'Maya')
  await page.getByLabel('Last Name').fill(input.lastName ?? 'Kahale')
  await page.getByLabel('Email Address').fill(input.email)
  await page.getByLabel('Phone Number').pressSequentially(input.phoneDigits)
  await page.getByLabel(/^Address\W*$/).fill('1200 Ala Moana Blvd')
  await page.getByLabel('Address Line 2 (optional)').fill('Apt 4B')
  await page.getByLabel('City').fill('Honolulu')
  await page.getByLabel(/^State\W*$/).selectOption({ label: input.state ?? 'Hawaii' })
  await page.getByLabel('ZIP Code').fill('96814')
  await drawSignature(page)
  if (input.agreementConsent !== false) await page.getByRole('checkbox', { name: AGREEMENT_CONSENT }).check()
  if (input.communicationsConsent !== false) {
    await page.getByRole('checkbox', { name: COMMUNICATIONS_CONSENT }).check()
  }
}

export async function answer(page: Page, question: string, choice: 'Yes' | 'No'): Promise<void> {
  await page.getByRole('radiogroup', { name: question }).getByLabel(choice, { exact: true }).click()
}

/** The intake as the API takes it, for specs that only need rows to exist; the signature is a real PNG. */
export function intakeBody(overrides: Record<string, unknown>): Record<string, unknown> {
  const png = fs.readFileSync(SCREENSHOT_PNG).toString('base64')
  return {
    cashAdvanceApps: ['earnin'],
    feesIncurred: ['Tips'],
    isOver18: true,
    isActiveMilitary: false,
    hasBankruptcy: false,
    firstName: 'Seed',
    lastName: 'Claimant',
    email: 'seed@example.com',
    phone: '(808) 555-0900',
    address: '1 Seed St',
    city: 'Hilo',
    state: 'HI',
    zipCode: '96720',
    signature: `data:image/png;base64,${png}`,
    consentAgreed: true,
    communicationsConsent: true,
    ...overrides,
  }
}
