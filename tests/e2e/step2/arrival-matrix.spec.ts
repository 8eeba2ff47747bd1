import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import { intakeRequest } from '../../../src/api/claim-request.ts'
import type { SigningMethod } from '../../../src/signing.ts'
import type { Locale } from '../../../src/translate.ts'
import { arriveOrSayWhy, FULL_NAME, signAs } from '../arrivals.ts'
import { baseUrl, chooseLanguage, connectBrowser, proofOfWorkHeaders, queryDb, shown } from '../browser.ts'
import { fillIntake, intakeBody, submitButton as submitIntakeButton } from '../intake/fill-intake.ts'
import { SCREENSHOT_PNG } from './fill-claim.ts'

// Every way a claimant reaches Earnin's Step 2 form, each produced as a person produces it: the signature
// drawn or typed, by the Step 2 link or not, after landing from an ad or not, in English or Spanish.
// One claimant (one browser context, so one browser's storage) per way.

interface Arrival {
  signing: SigningMethod
  byLink: boolean
  fromAd: boolean
  locale: Locale
}

interface StoredClaim {
  intake_id: number | null
  source: string
  locale: string
  signature_method: string
  typed_signature: string | null
}

const CAMPAIGN = { utm_source: 'ig', utm_campaign: 'fees-arrivals' }
const FIRST_NAME = 'José'
const LAST_NAME = 'Peña-Núñez'

const FORM_TEXT = {
  en: {
    // anchored: the typed signature's "Su nombre completo" holds "nombre" too
    firstName: /^First Name/,
    lastName: 'Last Name',
    email: 'Email Address',
    phone: 'Phone Number',
    count: 'How many times did you take cash advances?',
    countOption: '3 times',
    months: 'How many months were you a member?',
    monthsOption: '12 months',
    screenshot: 'Bank Statement Screenshot',
    submit: 'Submit Earnin Claim',
    thanks: 'Thank You',
    success: 'Earnin Information Submitted Successfully',
  },
  es: {
    firstName: /^Nombre/,
    lastName: 'Apellido',
    email: 'Correo electrónico',
    phone: 'Número de teléfono',
    count: '¿Cuántas veces recibió adelantos de efectivo?',
    countOption: '3 veces',
    months: '¿Cuántos meses fue miembro?',
    monthsOption: '12 meses',
    screenshot: 'Captura de pantalla del estado de cuenta bancario',
    submit: 'Enviar reclamo de Earnin',
    thanks: 'Gracias',
    success: 'Información de Earnin enviada correctamente',
  },
} as const

const ARRIVALS: Arrival[] = (['drawn', 'typed'] as const).flatMap((signing) =>
  [false, true].flatMap((byLink) =>
    [false, true].flatMap((fromAd) =>
      (['en', 'es'] as const).map((locale) => ({ signing, byLink, fromAd, locale })),
    ),
  ),
)

/** The one arrival the spec walks wholly through the pages, from the ad to the success page. */
const isWalkedThrough = (arrival: Arrival) =>
  arrival.signing === 'typed' && arrival.byLink && arrival.fromAd && arrival.locale === 'es'

const describeArrival = ({ signing, byLink, fromAd, locale }: Arrival) =>
  [
    signing,
    byLink ? 'by the Step 2 link' : 'without a link',
    fromAd ? 'from an ad' : 'no campaign',
    locale,
  ].join(', ')

// e-mails and phones no other spec uses
const claimantOf = (arrival: Arrival) => {
  const seq = ARRIVALS.indexOf(arrival) + 1
  const two = String(seq).padStart(2, '0')
  return {
    email: `arrival.matrix.${two}@example.com`,
    phoneDigits: `47955503${two}`,
    phone: `(479) 555-03${two}`,
  }
}

const addressIn = (path: string, locale: Locale) => {
  if (locale === 'en') return `${baseUrl()}${path}`
  const [beforeHash = '', hash] = path.split('#')
  return `${baseUrl()}${beforeHash}${beforeHash.includes('?') ? '&' : '?'}lang=${locale}${hash ? `#${hash}` : ''}`
}

/**
 * The ad's address, which lands on the main form. The page's first script keeps the campaign in the
 * browser's storage, so the landing is done once the document has run its scripts: the claim's stored
 * source is the check that it was kept.
 */
async function landFromAd(page: Page): Promise<void> {
  await page.goto(`${baseUrl()}/?${new URLSearchParams(CAMPAIGN).toString()}`, {
    waitUntil: 'domcontentloaded',
  })
}

/** The claimant's main form through the API as the intake page sends it; gives the Earnin link's path. */
async function fileIntake(arrival: Arrival): Promise<{ intakeId: number; earninPath: string }> {
  const claimant = claimantOf(arrival)
  const request = intakeRequest({
    data: intakeBody({
      cashAdvanceApps: ['earnin'],
      firstName: FIRST_NAME,
      lastName: LAST_NAME,
      email: claimant.email,
      phone: claimant.phone,
    }),
    agreementDate: new Date().toISOString().slice(0, 10),
    signing: { method: 'drawn' },
    locale: arrival.locale,
    attribution: arrival.fromAd ? CAMPAIGN : undefined,
  })
  const response = await fetch(`${baseUrl()}${request.path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(await proofOfWorkHeaders()) },
    body: JSON.stringify(request.body),
  })
  if (response.status !== 201)
    throw new Error(`the intake answered ${response.status}: ${await response.text()}`)
  const intake = (await response.json()) as CreatedIntake
  const earnin = intake.steps.find((step) => step.app === 'earnin')
  if (!earnin) throw new Error('the intake gave no Earnin link')
  return { intakeId: intake.id, earninPath: earnin.path }
}

/** The answers the claimant still gives, the signature, the submit click, and the success page. */
async function finishAndSubmit(page: Page, arrival: Arrival): Promise<void> {
  const text = FORM_TEXT[arrival.locale]
  await page.getByLabel(text.count).selectOption({ label: text.countOption })
  await page.getByLabel(text.months).selectOption({ label: text.monthsOption })
  await page.getByLabel(text.screenshot).setInputFiles(SCREENSHOT_PNG)
  await signAs(page, { method: arrival.signing, locale: arrival.locale })
  await page.getByRole('button', { name: text.submit }).click()
  await arriveOrSayWhy(page, { url: '**/earnin-success', what: 'claim' })
  await shown(page.getByRole('heading', { level: 1, name: text.thanks }))
  await shown(page.getByText(text.success))
}

function storedClaim(email: string): StoredClaim[] {
  return queryDb<StoredClaim>(
    `SELECT c.intake_id, c.source, c.locale, r.signature_method, r.typed_signature
     FROM claims c JOIN agreement_records r ON r.claim_id = c.id WHERE c.app = 'earnin' AND c.email = ?`,
    email,
  )
}

function storedIntake(email: string): { id: number; source: string } | undefined {
  return queryDb<{ id: number; source: string }>(
    'SELECT id, source FROM form_submissions WHERE email = ?',
    email,
  )[0]
}

describe('Earnin’s Step 2 form takes a claim in every way a claimant arrives', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })

  for (const arrival of ARRIVALS) {
    it(`files and stores the claim: ${describeArrival(arrival)}`, async () => {
      const claimant = claimantOf(arrival)
      const text = FORM_TEXT[arrival.locale]
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
      try {
        const page = await context.newPage()
        const pageErrors: string[] = []
        page.on('pageerror', (error) => pageErrors.push(error.message))

        if (arrival.fromAd) await landFromAd(page)
        let intakeId: number | undefined
        if (isWalkedThrough(arrival)) {
          // the whole way: the main form in the browser, then /thank-you's button to the Earnin form,
          // read and signed in Spanish
          await fillIntake(page, {
            apps: ['Earnin'],
            firstName: FIRST_NAME,
            lastName: LAST_NAME,
            email: claimant.email,
            phoneDigits: claimant.phoneDigits,
          })
          await submitIntakeButton(page).click()
          await page.waitForURL(`${baseUrl()}/thank-you`)
          const step2Link = page.getByRole('link', { name: 'File your Earnin claim' })
          expect(await step2Link.getAttribute('href')).toMatch(/^\/earnin#prefill=/)
          await step2Link.click()
          await page.waitForURL(/\/earnin(#|$)/)
          await expect
            .poll(() => page.getByLabel('First Name').inputValue(), { timeout: 10_000 })
            .toBe(FIRST_NAME)
          await chooseLanguage(page, 'Español')
          // the form's Spanish config and validator load after the page's texts: give them the time a
          // slow phone needs
          await shown(page.getByRole('button', { name: text.submit }), 30_000)
          const intake = storedIntake(claimant.email)
          // the main form, too, counts for the ad the claimant landed from
          expect(intake?.source).toBe(CAMPAIGN.utm_source)
          intakeId = intake?.id
        } else if (arrival.byLink) {
          const filed = await fileIntake(arrival)
          intakeId = filed.intakeId
          await page.goto(addressIn(filed.earninPath, arrival.locale))
        } else {
          await page.goto(addressIn('/earnin', arrival.locale))
        }
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(arrival.locale)

        if (arrival.byLink) {
          await expect
            .poll(() => page.getByLabel(text.firstName).inputValue(), { timeout: 10_000 })
            .toBe(FIRST_NAME)
          expect(await page.getByLabel(text.email).inputValue()).toBe(claimant.email)
          expect(await page.getByLabel(text.phone).inputValue()).toBe(claimant.phone)
        } else {
          await page.getByLabel(text.firstName).fill(FIRST_NAME)
          await page.getByLabel(text.lastName).fill(LAST_NAME)
          await page.getByLabel(text.email).fill(claimant.email)
          await page.getByLabel(text.phone).fill(claimant.phoneDigits)
        }
        await finishAndSubmit(page, arrival)

        expect(storedClaim(claimant.email)).toEqual([
          {
            intake_id: intakeId ?? null,
            source: arrival.fromAd ? CAMPAIGN.utm_source : '(none)',
            locale: arrival.locale,
            signature_method: arrival.signing,
            typed_signature: arrival.signing === 'typed' ? FULL_NAME : null,
          },
        ])
        expect(pageErrors).toEqual([])
      } finally {
        await context.close()
      }
    })
  }
})
