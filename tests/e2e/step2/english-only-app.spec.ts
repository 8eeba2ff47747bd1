import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connectBrowser, openPhonePage, queryDbIn, shown } from '../browser.ts'
import { tabTo } from '../keyboard.ts'
import { startOwnServer, type OwnServer } from '../own-server.ts'
import { fillClaim, submitButton } from './fill-claim.ts'

/** forms/ with acme.json added as brigit.json renamed Acme, and no Spanish written for it. */
function formsWithEnglishOnlyAcme(workDir: string): string {
  const formsDir = path.join(workDir, 'forms')
  fs.cpSync(path.resolve('forms'), formsDir, { recursive: true })
  const brigit = fs.readFileSync(path.join(formsDir, 'brigit.json'), 'utf8')
  fs.writeFileSync(
    path.join(formsDir, 'acme.json'),
    brigit.replaceAll('Brigit', 'Acme').replaceAll('brigit', 'acme'),
  )
  return formsDir
}

describe('a Spanish reader of an app with English texts only', () => {
  let browser: Browser
  let server: OwnServer
  let formsDir: string

  beforeAll(async () => {
    formsDir = formsWithEnglishOnlyAcme(fs.mkdtempSync(path.join(os.tmpdir(), 'claims-e2e-acme-')))
    server = await startOwnServer('english-only', { FORMS_DIR: formsDir, PUBLIC_LIMIT_PER_ADDRESS: '100000' })
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
    fs.rmSync(path.dirname(formsDir), { recursive: true, force: true })
  })

  it('reads a note in Spanish, finds Spanish marked as not offered, and signs the English form', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${server.url}/acme?lang=es`)

    expect(await shown(page.getByRole('note'))).toBe('Este formulario solo está disponible en inglés.')
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Acme Cash Advance Claim (Step 2)')
    const spanish = page.getByRole('button', { name: 'Español: no disponible aquí' })
    expect(await spanish.getAttribute('aria-disabled')).toBe('true')
    await tabTo(page, 'button.not-offered')
    await page.keyboard.press('Enter')
    expect(await shown(page.getByRole('note'))).toBe('Este formulario solo está disponible en inglés.')

    await fillClaim(page, { phoneDigits: '5552230199', email: 'acme.lector@example.com' })
    await submitButton(page, 'Acme').click()
    await page.waitForURL(/\/acme-success$/)
    expect(queryDbIn(server.dataDir, "SELECT locale FROM claims WHERE app = 'acme'")).toEqual([
      { locale: 'en' },
    ])
    expect(pageErrors).toEqual([])
  })
})
