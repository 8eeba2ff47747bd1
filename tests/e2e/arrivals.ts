import type { Page } from 'playwright-core'
import type { SigningMethod } from '../../src/signing.ts'
import type { Locale } from '../../src/translate.ts'
import { shown } from './browser.ts'
import { drawSignature } from './step2/fill-claim.ts'

/** The name the arrival specs sign with: accented, as a claimant's own may be. */
export const FULL_NAME = 'José Peña-Núñez'

/** The signature field's words in each language the forms are offered in. */
const SIGNING_TEXT = {
  en: {
    pad: { padName: /^Signature pad/, captured: '✓ Signature captured' },
    typeInstead: 'Type your signature instead',
    fullName: 'Your full name',
  },
  es: {
    pad: { padName: /^Recuadro de firma/, captured: '✓ Firma registrada' },
    typeInstead: 'Escribir mi firma',
    fullName: 'Su nombre completo',
  },
} as const

/**
 * Signs as a person does: draws on the pad, or types the full name, reaching the typed signature by
 * Enter on the pad (English) or by its button (Spanish), so both ways in are walked.
 */
export async function signAs(page: Page, { method, locale }: { method: SigningMethod; locale: Locale }) {
  const text = SIGNING_TEXT[locale]
  if (method === 'drawn') return drawSignature(page, text.pad)
  if (locale === 'en') {
    await page.getByRole('img', { name: text.pad.padName }).focus()
    await page.keyboard.press('Enter')
  } else {
    await page.getByRole('button', { name: text.typeInstead }).click()
  }
  await page.getByLabel(text.fullName).fill(FULL_NAME)
  await shown(page.getByText(text.pad.captured))
}

/**
 * Waits for the page a submitted form goes to; a refusal the form shows instead (what it says is missing,
 * or the server's answer) fails the test at once with its words.
 */
export async function arriveOrSayWhy(page: Page, { url, what }: { url: string | RegExp; what: string }) {
  const refusal = page.getByRole('alert').filter({ hasText: /\S/ }).first()
  const arrived = page.waitForURL(url, { timeout: 30_000 }).then(() => 'arrived' as const)
  const refused = refusal.waitFor({ timeout: 30_000 }).then(() => 'refused' as const)
  // only the first outcome is awaited; the other fails when the context closes, and that is no error
  void arrived.catch(() => undefined)
  void refused.catch(() => undefined)
  if ((await Promise.race([arrived, refused])) === 'refused')
    throw new Error(`the form refused the ${what}: ${await refusal.innerText()}`)
}
