import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { CreatedIntake } from '../../../src/api/claims.ts'
import { intakeRequest } from '../../../src/api/claim-request.ts'
import type { Locale } from '../../../src/translate.ts'
import { axeViolations } from '../accessibility/axe.ts'
import { arriveOrSayWhy, signAs } from '../arrivals.ts'
import { baseUrl, connectBrowser, keepScreenshot, proofOfWorkHeaders, queryDb, shown } from '../browser.ts'
import { intakeBody } from '../intake/fill-intake.ts'
import { tabTo } from '../keyboard.ts'
import { SCREENSHOT_PNG } from './fill-claim.ts'

// The Step 2 success page leads on: the claim's number, and a button to the next app the claimant's
// main form chose, pre-filled by its Step 2 link.

const TEXT = {
  en: {
    count: 'How many times did you take cash advances?',
    countOption: '3 times',
    months: 'How many months were you a member?',
    monthsOption: '12 months',
    screenshot: 'Bank Statement Screenshot',
    submit: 'Submit Earnin Claim',
    number: (id: number) => `Your claim number is ${id}. Please quote it when you contact us.`,
    next: 'Next: File your Chime claim',
    firstName: /^First Name/,
  },
  es: {
    count: '¿Cuántas veces recibió adelantos de efectivo?',
    countOption: '3 veces',
    months: '¿Cuántos meses fue miembro?',
    monthsOption: '12 meses',
    screenshot: 'Captura de pantalla del estado de cuenta bancario',
    submit: 'Enviar reclamo de Earnin',
    number: (id: number) =>
      `Su número de reclamo es ${id}. Por favor, menciónelo cuando se comunique con nosotros.`,
    next: 'Siguiente: presente su reclamo de Chime',
    firstName: /^Nombre/,
  },
} as const

const WAYS: { width: number; locale: Locale; seq: string }[] = [
  { width: 390, locale: 'en', seq: '01' },
  { width: 1280, locale: 'en', seq: '02' },
  { width: 390, locale: 'es', seq: '03' },
]

/** The claimant's main form through the API as the intake page sends it, choosing Earnin and Chime. */
async function fileIntake(email: string, phone: string, locale: Locale): Promise<CreatedIntake> {
  const request = intakeRequest({
    data: intakeBody({
      cashAdvanceApps: ['earnin', 'chime'],
      firstName: 'Nia',
      lastName: 'Kahale',
      email,
      phone,
    }),
    agreementDate: new Date().toISOString().slice(0, 10),
    signing: { method: 'drawn' },
    locale,
  })
  const response = await fetch(`${baseUrl()}${request.path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(await proofOfWorkHeaders()) },
    body: JSON.stringify(request.body),
  })
  if (response.status !== 201)
    throw new Error(`the intake answered ${response.status}: ${await response.text()}`)
  return (await response.json()) as CreatedIntake
}

async function finishEarnin(page: Page, locale: Locale): Promise<void> {
  const text = TEXT[locale]
  await shown(page.getByRole('button', { name: text.submit }), 30_000)
  await page.getByLabel(text.count).selectOption({ label: text.countOption })
  await page.getByLabel(text.months).selectOption({ label: text.monthsOption })
  await page.getByLabel(text.screenshot).setInputFiles(SCREENSHOT_PNG)
  await signAs(page, { method: 'drawn', locale })
  await page.getByRole('button', { name: text.submit }).click()
  await arriveOrSayWhy(page, { url: '**/earnin-success', what: 'claim' })
}

describe('the Step 2 success page gives the claim number and the next app', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })

  for (const { width, locale, seq } of WAYS) {
    it(`names the claim and opens the next app's pre-filled form by keyboard (${width} px, ${locale})`, async () => {
      const email = `next.app.${seq}@example.com`
      const intake = await fileIntake(email, `(479) 555-04${seq}`, locale)
      const earnin = intake.steps.find((step) => step.app === 'earnin')!
      const context = await browser.newContext({ viewport: { width, height: 844 } })
      try {
        const page = await context.newPage()
        const pageErrors: string[] = []
        page.on('pageerror', (error) => pageErrors.push(error.message))
        const [path, fragment] = earnin.path.split('#')
        const lang = locale === 'en' || path!.includes('lang=') ? '' : `?lang=${locale}`
        await page.goto(`${baseUrl()}${path}${lang}#${fragment}`)
        await finishEarnin(page, locale)

        const [claim] = queryDb<{ id: number }>(
          `SELECT id FROM claims WHERE app = 'earnin' AND email = ?`,
          email,
        )
        const text = TEXT[locale]
        await shown(page.getByText(text.number(claim!.id)))
        const next = page.getByRole('link', { name: text.next })
        expect(await next.getAttribute('href')).toMatch(/^\/chime(\?lang=es)?#prefill=[\w.-]+$/)
        // nothing personal in the page's own address either
        expect(page.url()).not.toContain(email)
        expect(await axeViolations(page)).toEqual([])
        await keepScreenshot(page, `next-app-${width}-${locale}`)

        await page.locator('body').focus()
        await tabTo(page, '.next-app .step2-button')
        await page.keyboard.press('Enter')
        await page.waitForURL(/\/chime(\?lang=es)?#?/)
        await expect
          .poll(() => page.getByLabel(text.firstName).first().inputValue(), { timeout: 15_000 })
          .toBe('Nia')
        expect(pageErrors).toEqual([])
      } finally {
        await context.close()
      }
    })
  }
})
