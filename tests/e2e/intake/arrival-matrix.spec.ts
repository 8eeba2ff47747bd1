import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SigningMethod } from '../../../src/signing.ts'
import type { Locale } from '../../../src/translate.ts'
import { arriveOrSayWhy, FULL_NAME, signAs } from '../arrivals.ts'
import { baseUrl, connectBrowser, queryDb, shown } from '../browser.ts'

// Every way a claimant reaches the main intake form, each produced as a person produces it: the signature
// drawn or typed, after landing from an ad or not, in English or Spanish. One claimant (one browser
// context, so one browser's storage) per way.

interface Arrival {
  signing: SigningMethod
  fromAd: boolean
  locale: Locale
}

interface StoredIntake {
  locale: string
  signature_method: string
  typed_signature: string | null
  source: string
}

const CAMPAIGN = { utm_source: 'ig', utm_campaign: 'intake-arrivals' }
const FIRST_NAME = 'José'
const LAST_NAME = 'Peña-Núñez'

const FORM_TEXT = {
  en: {
    apps: 'Which cash advance apps have you used?',
    app: 'Earnin',
    fees: 'Which fees have you paid?',
    fee: 'Tips',
    over18: 'Are you 18 years of age or older?',
    military: 'Are you an active member of the military?',
    bankruptcy: 'Have you filed for bankruptcy?',
    yes: 'Yes',
    no: 'No',
    // anchored: the typed signature's "Your full name" holds "name" too
    firstName: /^First Name/,
    lastName: /^Last Name/,
    email: 'Email Address',
    phone: 'Phone Number',
    address: /^Address\W*$/,
    address2: 'Address Line 2 (optional)',
    city: 'City',
    state: /^State\W*$/,
    stateOption: 'Hawaii',
    zip: 'ZIP Code',
    agreementConsent: /^I agree to the Attorney-Client Agreement/,
    communicationsConsent: /^I agree to receive calls, texts and e-mails/,
    submit: 'Submit My Claim',
    thanks: 'Thank You',
  },
  es: {
    apps: '¿Qué aplicaciones de adelanto de efectivo ha usado?',
    app: 'Earnin',
    fees: '¿Qué cargos ha pagado?',
    fee: 'Propinas',
    over18: '¿Tiene 18 años de edad o más?',
    military: '¿Es usted miembro activo de las fuerzas armadas?',
    bankruptcy: '¿Se ha declarado en bancarrota?',
    yes: 'Sí',
    no: 'No',
    // anchored: the typed signature's "Su nombre completo" holds "Nombre" too
    firstName: /^Nombre/,
    lastName: /^Apellido/,
    email: 'Correo electrónico',
    phone: 'Número de teléfono',
    address: /^Dirección\W*$/,
    address2: 'Dirección, línea 2 (opcional)',
    city: 'Ciudad',
    state: /^Estado\W*$/,
    stateOption: 'Hawái',
    zip: 'Código postal',
    agreementConsent: /^Acepto el Acuerdo entre Abogado y Cliente/,
    communicationsConsent: /^Acepto recibir llamadas, mensajes de texto y correos electrónicos/,
    submit: 'Enviar mi reclamo',
    thanks: 'Gracias',
  },
} as const

const ARRIVALS: Arrival[] = (['drawn', 'typed'] as const).flatMap((signing) =>
  [false, true].flatMap((fromAd) => (['en', 'es'] as const).map((locale) => ({ signing, fromAd, locale }))),
)

const describeArrival = ({ signing, fromAd, locale }: Arrival) =>
  [signing, fromAd ? 'from an ad' : 'no campaign', locale].join(', ')

// e-mails and phones no other spec uses
const claimantOf = (arrival: Arrival) => {
  const two = String(ARRIVALS.indexOf(arrival) + 1).padStart(2, '0')
  return { email: `intake.arrival.${two}@example.com`, phoneDigits: `47955504${two}` }
}

/** The main form's address: the ad's campaign parameters and the language, each when the arrival has it. */
const addressOf = ({ fromAd, locale }: Arrival) => {
  const params = new URLSearchParams(fromAd ? CAMPAIGN : {})
  if (locale !== 'en') params.set('lang', locale)
  const query = params.toString()
  return `${baseUrl()}/${query ? `?${query}` : ''}`
}

async function answer(page: Page, question: string, choice: string): Promise<void> {
  await page.getByRole('radiogroup', { name: question }).getByLabel(choice, { exact: true }).click()
}

/** Clicks, fills, picks and signs the way a person does, in the page's language; leaves the submit alone. */
async function fillIntakeIn(page: Page, arrival: Arrival): Promise<void> {
  const text = FORM_TEXT[arrival.locale]
  const claimant = claimantOf(arrival)
  await page.getByRole('group', { name: text.apps }).getByLabel(text.app, { exact: true }).click()
  await page.getByRole('group', { name: text.fees }).getByLabel(text.fee, { exact: true }).click()
  await answer(page, text.over18, text.yes)
  await answer(page, text.military, text.no)
  await answer(page, text.bankruptcy, text.no)
  await page.getByLabel(text.firstName).fill(FIRST_NAME)
  await page.getByLabel(text.lastName).fill(LAST_NAME)
  await page.getByLabel(text.email).fill(claimant.email)
  // the phone widget formats as it goes, so it gets key presses
  await page.getByLabel(text.phone).pressSequentially(claimant.phoneDigits)
  await page.getByLabel(text.address).fill('1200 Ala Moana Blvd')
  await page.getByLabel(text.address2).fill('Apt 4B')
  await page.getByLabel(text.city).fill('Honolulu')
  await page.getByLabel(text.state).selectOption({ label: text.stateOption })
  await page.getByLabel(text.zip).fill('96814')
  await signAs(page, { method: arrival.signing, locale: arrival.locale })
  await page.getByRole('checkbox', { name: text.agreementConsent }).check()
  await page.getByRole('checkbox', { name: text.communicationsConsent }).check()
}

function storedIntake(email: string): StoredIntake[] {
  return queryDb<StoredIntake>(
    'SELECT locale, signature_method, typed_signature, source FROM form_submissions WHERE email = ?',
    email,
  )
}

describe('the main intake form takes a claimant in every way one arrives', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })

  for (const arrival of ARRIVALS) {
    it(`files and stores the intake: ${describeArrival(arrival)}`, async () => {
      const claimant = claimantOf(arrival)
      const text = FORM_TEXT[arrival.locale]
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
      try {
        const page = await context.newPage()
        const pageErrors: string[] = []
        page.on('pageerror', (error) => pageErrors.push(error.message))

        await page.goto(addressOf(arrival))
        expect(await page.evaluate(() => document.documentElement.lang)).toBe(arrival.locale)
        await fillIntakeIn(page, arrival)
        await page.getByRole('button', { name: text.submit }).click()
        await arriveOrSayWhy(page, { url: /\/thank-you(\?|#|$)/, what: 'intake' })
        await shown(page.getByRole('heading', { level: 1, name: text.thanks }))

        expect(storedIntake(claimant.email)).toEqual([
          {
            locale: arrival.locale,
            signature_method: arrival.signing,
            typed_signature: arrival.signing === 'typed' ? FULL_NAME : null,
            source: arrival.fromAd ? CAMPAIGN.utm_source : '(none)',
          },
        ])
        expect(pageErrors).toEqual([])
      } finally {
        await context.close()
      }
    })
  }
})
