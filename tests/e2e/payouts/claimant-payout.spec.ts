import path from 'node:path'
import Database from 'better-sqlite3'
import { Kysely, SqliteDialect } from 'kysely'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { SQLITE_FILE_NAME } from '../../../server/db/create-db.ts'
import type { Database as Tables } from '../../../server/db/database.ts'
import { addSettlement, giveAward } from '../../server/support/payout-claims.ts'
import { axeViolations } from '../accessibility/axe.ts'
import { requestAgreementLink } from '../agreements/agreement-link.ts'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown } from '../browser.ts'
import { tabTo, typeText } from '../keyboard.ts'
import { fileClaim } from '../seed.ts'
import { drawStrokes } from '../step2/fill-claim.ts'

const PERSON = {
  firstName: 'Rosa',
  lastName: 'Mendez',
  email: 'rosa.mendez@example.com',
  phoneDigits: '6025550163',
}

// one claimant who signs a settlement's consent by drawing it, one who reads the page in Spanish
const DRAWER = {
  firstName: 'Tomas',
  lastName: 'Reyes',
  email: 'tomas.reyes@example.com',
  phoneDigits: '6025550164',
}
const LUCIA = {
  firstName: 'Lucia',
  lastName: 'Ortega',
  email: 'lucia.ortega@example.com',
  phoneDigits: '6025550165',
}
const PNG_DATA_URL = /^data:image\/png;base64,iVBORw0KGgo/

/** The e2e server's SQLite file, open beside the running server, for `use`. */
async function withDb(use: (db: Kysely<Tables>) => Promise<unknown>): Promise<void> {
  const db = new Kysely<Tables>({
    dialect: new SqliteDialect({ database: new Database(path.join(inject('dataDir'), SQLITE_FILE_NAME)) }),
  })
  try {
    await use(db)
  } finally {
    await db.destroy()
  }
}

/** The award a claim is given, written into the e2e server's SQLite file as the award import will. */
async function awardClaim(claimId: number): Promise<void> {
  await withDb((db) => giveAward(db, { claimId, app: 'brigit', grossCents: 125_000 }))
}

/** A page of its own context (axe needs one) at a phone's width, failing on any page error. */
async function phonePage(browser: Browser): Promise<{ page: Page; pageErrors: string[] }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
  const page = await context.newPage()
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  return { page, pageErrors }
}

/** The claimant's status page, opened from the link /view-agreement e-mails them (in Spanish with `lang`). */
async function openStatusPage(
  page: Page,
  person: { email: string; phoneDigits: string },
  lang?: 'es',
): Promise<void> {
  await page.goto(`${baseUrl()}/view-agreement${lang ? `?lang=${lang}` : ''}`)
  await page.goto(await requestAgreementLink(page, { email: person.email, phone: person.phoneDigits }))
}

/** Tabs to a field and types into it, key by key. */
async function typeInto(page: Page, selector: string, text: string): Promise<void> {
  await tabTo(page, selector)
  await typeText(page, text)
}

describe('a claimant with an award chooses how to be paid and signs, drawn or typed, in English or Spanish', () => {
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
    // the pad first, as on the agreement: Enter on it gives the typed name, which takes the focus
    await tabTo(page, `canvas#${w9}-signature`)
    await page.keyboard.press('Enter')
    await page.waitForFunction(
      (id) => document.activeElement?.matches(`input#${id}`) ?? false,
      `${w9}-signature`,
    )
    await typeText(page, 'Rosa Mendez')
    await page.keyboard.press('Enter')
    await shown(page.getByText('This is not a valid Social Security number. Please check it.'))
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`${w9}-tin`)
    await shown(page.getByRole('alert'))
    expect(await axeViolations(page)).toEqual([])

    await page.keyboard.press('Control+A')
    await typeText(page, '234-56-7891')
    await tabTo(page, `#${w9}-isCertified`)
    if (!(await page.locator(`#${w9}-isCertified`).isChecked())) await page.keyboard.press('Space')
    await tabTo(page, `input#${w9}-signature`)
    if ((await page.locator(`input#${w9}-signature`).inputValue()) === '') await typeText(page, 'Rosa Mendez')
    await page.keyboard.press('Enter')
    await shown(page.getByText('Your W-9 is on file: Rosa Mendez, ••••7891'))
    // with the W-9 on file nothing is held back: $1,250.00 - $500.00 = $750.00
    expect(await section.locator('.payout-amounts').innerText()).toMatch(/\$750\.00/)
    const [stored] = queryDb<{
      tin_sealed: string
      tin_last4: string
      signature_method: string
      signature: string
    }>('SELECT tin_sealed, tin_last4, signature_method, signature FROM tax_forms WHERE claim_id = ?', claimId)
    expect(stored!.tin_last4).toBe('7891')
    expect([stored!.signature_method, stored!.signature]).toEqual(['typed', 'Rosa Mendez'])
    expect(stored!.tin_sealed).not.toContain('234567891')
    expect(await page.locator('body').innerText()).not.toContain('234-56-7891')
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'claimant-payout-390')
    await page.setViewportSize({ width: 1280, height: 900 })
    await keepScreenshot(page, 'claimant-payout-1280')
    expect(pageErrors).toEqual([])
    await context.close()
  })
  it("signs a settlement's consent by drawing it with the mouse, and it is stored as drawn", async () => {
    const claimId = await fileClaim('brigit', DRAWER)
    await withDb((db) =>
      addSettlement(db, {
        app: 'brigit',
        name: 'Brigit fee settlement',
        shares: [{ claimId, grossCents: 80_000 }],
      }),
    )
    const { page, pageErrors } = await phonePage(browser)
    await openStatusPage(page, DRAWER)
    await shown(page.getByRole('heading', { name: 'Consent to the settlement “Brigit fee settlement”' }))
    const consent = page.getByRole('form', { name: 'Sign the consent' })
    await shown(
      consent.getByText('Draw your signature in the box with your finger, a mouse or a pen.', {
        exact: false,
      }),
    )

    // nothing drawn yet: the server's message stands under the pad, which takes the focus
    await consent.getByRole('button', { name: 'Sign the consent' }).click()
    await shown(consent.getByText('Please sign: type your full name, or draw your signature.'))
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`consent-${claimId}-signature`)
    expect(queryDb('SELECT claim_id FROM settlement_consents WHERE claim_id = ?', claimId)).toEqual([])

    await drawStrokes(page, consent.getByRole('img', { name: /^Signature pad/ }))
    await shown(consent.getByText('✓ Signature captured'))
    expect(await consent.getByText('Please sign: type your full name, or draw your signature.').count()).toBe(
      0,
    )
    await consent.getByRole('button', { name: 'Sign the consent' }).click()
    await shown(page.getByText(/^You signed this consent on /))
    const [stored] = queryDb<{ signature_method: string; signature: string }>(
      'SELECT signature_method, signature FROM settlement_consents WHERE claim_id = ?',
      claimId,
    )
    expect(stored!.signature_method).toBe('drawn')
    expect(stored!.signature).toMatch(PNG_DATA_URL)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'claimant-consent-drawn-390')
    expect(pageErrors).toEqual([])
    await page.context().close()
  })

  it('a claimant reading in Spanish chooses a bank transfer and signs the W-9 by typing, every text in Spanish', async () => {
    const claimId = await fileClaim('brigit', LUCIA)
    await awardClaim(claimId)
    const { page, pageErrors } = await phonePage(browser)
    await openStatusPage(page, LUCIA, 'es')
    await shown(page.getByRole('heading', { name: 'Su pago: Brigit' }))

    await page.getByLabel('Transferencia bancaria (ACH)', { exact: true }).check()
    await page.getByLabel('Número de ruta bancaria', { exact: true }).fill('011000015')
    await page.getByLabel('Número de cuenta', { exact: true }).fill('4455667788')
    await page.getByLabel('Cuenta de cheques', { exact: true }).check()
    await page.getByRole('button', { name: 'Guardar cómo recibo el pago' }).click()
    await shown(
      page.getByText(
        'Usted recibe el pago por: Transferencia bancaria (ACH) a la cuenta de cheques ••••7788',
      ),
    )

    const w9 = page.getByRole('form', { name: 'Su W-9 (para impuestos)' })
    await w9.getByLabel('Su nombre como aparece en su declaración de impuestos').fill('Lucía Ortega')
    await w9.getByLabel('Número de Seguro Social', { exact: true }).fill('666-12-3456')
    await w9.getByLabel('Dirección', { exact: true }).fill('400 W Washington St')
    await w9.getByLabel('Ciudad', { exact: true }).fill('Phoenix')
    await w9.getByLabel('Estado (2 letras)').fill('AZ')
    await w9.getByLabel('Código postal').fill('85003')
    await w9.getByLabel('Certifico que todo lo anterior es verdad.').check()
    // the pad, in Spanish, and the choice to type instead
    await shown(w9.getByText('Firma', { exact: true }))
    await shown(w9.getByRole('img', { name: /^Recuadro de firma/ }))
    await w9.getByRole('button', { name: 'Escribir mi firma' }).click()
    await shown(w9.getByText('Escriba su nombre completo como firma. Se muestra con estilo de firma.'))
    await w9.getByLabel('Su nombre completo', { exact: true }).fill('Lucía Ortega')
    await shown(w9.getByText('✓ Firma registrada'))
    await w9.getByRole('button', { name: 'Firmar y enviar mi W-9' }).click()

    // the SSN refused in Spanish, under its field, which takes the focus
    await shown(w9.getByText('Este no es un número de Seguro Social válido. Revíselo.'))
    await shown(w9.getByRole('alert').getByText('Corrija lo que está marcado abajo.'))
    expect(await page.evaluate(() => document.activeElement?.id)).toBe(`w9-${claimId}-tin`)
    expect(await axeViolations(page)).toEqual([])
    await keepScreenshot(page, 'claimant-w9-spanish-refused-390')

    await w9.getByLabel('Número de Seguro Social', { exact: true }).fill('234-56-7893')
    await w9.getByRole('button', { name: 'Firmar y enviar mi W-9' }).click()
    await shown(page.getByText('Tenemos su W-9: Lucía Ortega, ••••7893'))
    const [stored] = queryDb<{ signature_method: string; signature: string }>(
      'SELECT signature_method, signature FROM tax_forms WHERE claim_id = ?',
      claimId,
    )
    expect([stored!.signature_method, stored!.signature]).toEqual(['typed', 'Lucía Ortega'])
    expect(pageErrors).toEqual([])
    await page.context().close()
  })
})
