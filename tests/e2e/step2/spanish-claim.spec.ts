import fs from 'node:fs'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { baseUrl, connectBrowser, downloadedFile, openPhonePage, queryDb, shown } from '../browser.ts'
import { SCREENSHOT_PNG } from './fill-claim.ts'
import { linkMailedAfter } from '../agreements/agreement-link.ts'

interface StoredRecord {
  claim_locale: string
  record_locale: string
  html: string
  consent_text: string
  signature_method: string
}

async function pdfFacts(file: string): Promise<{ text: string; isTagged: boolean }> {
  const document = await getDocument({ data: new Uint8Array(fs.readFileSync(file)), verbosity: 0 }).promise
  try {
    const texts: string[] = []
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent()
      texts.push(content.items.map((item) => ('str' in item ? item.str : '')).join(' '))
    }
    const markInfo = (await document.getMarkInfo()) as { Marked?: boolean } | null
    return { text: texts.join(' '), isTagged: markInfo?.Marked === true }
  } finally {
    await document.destroy()
  }
}

describe('a claimant who reads Spanish, from an ad’s ?lang=es link to the signed PDF', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser.close()
  })

  it('files in Spanish, is stored in Spanish, and downloads a Spanish PDF that prints their name', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/brigit?lang=es`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe(
      'Reclamo por adelanto de efectivo de Brigit (Paso 2)',
    )
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es')
    expect(await page.getByRole('button', { name: 'Español' }).getAttribute('aria-pressed')).toBe('true')

    await page.getByLabel('Nombre').fill('Łukasz')
    await page.getByLabel('Apellido').fill('Nguyễn')
    await page.getByLabel('Correo electrónico').fill('lukasz.nguyen@example.com')
    await page.getByLabel('Número de teléfono').pressSequentially('+1 (702) 555-0199')
    await page.getByLabel('Captura de pantalla del estado de cuenta bancario').setInputFiles(SCREENSHOT_PNG)
    await page.getByRole('button', { name: 'Escribir mi firma' }).click()
    await page.getByLabel('Su nombre completo').fill('Łukasz Nguyễn')
    await shown(page.getByText('✓ Firma registrada'))
    await shown(
      page
        .getByTestId('agreement-text')
        .getByText('Acuerdo de Honorarios Contingentes entre Abogado y Cliente'),
    )
    await page.getByRole('button', { name: 'Enviar reclamo de Brigit' }).click()

    await page.waitForURL('**/brigit-success')
    await shown(page.getByRole('heading', { name: 'Gracias' }))
    await shown(page.getByText('Información de Brigit enviada correctamente'))

    const [stored] = queryDb<StoredRecord>(
      `SELECT c.locale AS claim_locale, r.locale AS record_locale, r.html, r.consent_text, r.signature_method
       FROM claims c JOIN agreement_records r ON r.claim_id = c.id WHERE c.email = ?`,
      'lukasz.nguyen@example.com',
    )
    expect(stored).toMatchObject({ claim_locale: 'es', record_locale: 'es', signature_method: 'typed' })
    expect(stored!.html).toContain('Este acuerdo se celebra entre Łukasz Nguyễn')
    expect(stored!.consent_text).toMatch(/^Al firmar arriba y enviar este formulario, acepto/)

    // the language is remembered: /view-agreement opens in Spanish without ?lang
    await page.goto(`${baseUrl()}/view-agreement`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Ver mi acuerdo')
    await page.getByLabel('Correo electrónico').fill('lukasz.nguyen@example.com')
    await page.getByLabel('Número de teléfono').fill('702.555.0199')
    const link = await linkMailedAfter('lukasz.nguyen@example.com', async () => {
      await page.getByRole('button', { name: 'Buscar mi acuerdo' }).click()
      await shown(page.getByRole('heading', { name: 'Revise su correo electrónico' }))
    })
    // the e-mail was written in Spanish, and its link opens the page in Spanish
    expect(link).toMatch(/\/view-agreement\?lang=es#link=/)
    await page.goto(link)
    await shown(page.getByRole('heading', { name: '¡Acuerdo encontrado!' }))
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Descargar su acuerdo de Brigit (PDF)' }).click(),
    ])
    const pdf = await pdfFacts(await downloadedFile(download))
    expect(pdf.isTagged).toBe(true)
    expect(pdf.text).toContain('Łukasz Nguyễn')
    expect(pdf.text).toContain('Datos de auditoría')
    expect(pdf.text).not.toContain('?ukasz')
    expect(pageErrors).toEqual([])
  })

  it('switches with English | Español, and the switch is remembered', async () => {
    const { page } = await openPhonePage(browser)
    await page.goto(`${baseUrl()}/view-agreement`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('View My Agreement')
    await page.getByRole('button', { name: 'Español' }).click()
    await shown(page.getByRole('heading', { level: 1, name: 'Ver mi acuerdo' }))
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('es')
    await page.reload()
    await shown(page.getByRole('heading', { level: 1, name: 'Ver mi acuerdo' }))
    await page.getByRole('button', { name: 'English' }).click()
    await shown(page.getByRole('heading', { level: 1, name: 'View My Agreement' }))
  })

  it('opens in Spanish on a first visit from a browser whose language is Spanish', async () => {
    const context = await browser.newContext({ locale: 'es-MX', viewport: { width: 390, height: 844 } })
    const page = await context.newPage()
    await page.goto(`${baseUrl()}/thank-you`)
    await shown(page.getByRole('heading', { level: 1, name: 'Gracias' }))
    await context.close()
  })
})
