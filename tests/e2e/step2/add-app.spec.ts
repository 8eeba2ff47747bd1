import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readServerConfig } from '../../../server/config.ts'
import { startServer, type RunningServer } from '../../../server/main.ts'
import { connectBrowser, openPhonePage, queryDbIn, shown } from '../browser.ts'
import { spanishForNewApp } from '../../server/support/new-app-texts.ts'
import { fillClaim, submitButton } from './fill-claim.ts'

const FORMS_DIR = path.resolve('forms')

/** What a firm writes to add an app: a short file of its names and texts, over the shared Step 2 base. */
const ACME_CASH = {
  slug: 'acme-cash',
  displayName: 'Acme Cash',
  lookupOrder: 12,
  title: { app: 'Acme Cash', product: 'Cash Advance Claim' },
  intro:
    'Congratulations on qualifying for the next step in our case against Acme Cash. Please provide the information to continue.',
  screenshotPrompt:
    'Upload a screenshot of your bank statement showing an Acme Cash subscription fee or cash advance transaction.',
  submitLabel: 'Submit Acme Cash Claim',
  success: { line: 'Acme Cash Information Submitted Successfully' },
  agreement: { template: 'sections-1-2' },
}

describe('an app added as one short file', () => {
  let browser: Browser
  let server: RunningServer
  let workDir: string

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'claims-add-app-'))
    const formsDir = path.join(workDir, 'forms')
    fs.cpSync(FORMS_DIR, formsDir, { recursive: true })
    fs.writeFileSync(path.join(formsDir, 'acme-cash.json'), JSON.stringify(ACME_CASH, null, 2))
    const spanishFile = path.join(formsDir, 'es', 'config.json')
    const spanish = JSON.parse(fs.readFileSync(spanishFile, 'utf8')) as Record<string, string>
    fs.writeFileSync(
      spanishFile,
      JSON.stringify(
        { ...spanish, ...spanishForNewApp({ formsDir: FORMS_DIR, model: 'brigit', app: ACME_CASH }) },
        null,
        2,
      ),
    )
    server = await startServer(
      readServerConfig({
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: path.join(workDir, 'data'),
        FORMS_DIR: formsDir,
        LOG_LEVEL: 'silent',
        // every spec's browser is 127.0.0.1: limits set above the suite's claims
        PUBLIC_LIMIT_PER_ADDRESS: '100000',
      }),
    )
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
    fs.rmSync(workDir, { recursive: true, force: true })
  })

  it('is a file of a screen or less', () => {
    expect(JSON.stringify(ACME_CASH, null, 2).split('\n').length).toBeLessThanOrEqual(25)
  })

  it('shows its own page, takes a claim and stores it under its slug', async () => {
    const { page, pageErrors } = await openPhonePage(browser)
    await page.goto(`${server.url}/acme-cash`)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Acme Cash Cash Advance Claim (Step 2)')
    await shown(page.getByText(ACME_CASH.intro))
    // the shared base's fields, messages and rules, as every other app has them
    await fillClaim(page, { phoneDigits: '5552239911', email: 'acme.claimant@example.com' })
    await submitButton(page, 'Acme Cash').click()
    await page.waitForURL(/\/acme-cash-success$/)
    await shown(page.getByText('Acme Cash Information Submitted Successfully'))
    expect(pageErrors).toEqual([])

    const rows = queryDbIn(
      path.join(workDir, 'data'),
      'SELECT app, email, phone_number FROM claims WHERE app = ?',
      'acme-cash',
    )
    expect(rows).toEqual([
      { app: 'acme-cash', email: 'acme.claimant@example.com', phone_number: '(555) 223-9911' },
    ])
  })
})
