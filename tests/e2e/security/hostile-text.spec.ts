import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatPhone } from '../../../src/phone.ts'
import { intakeBody } from '../intake/fill-intake.ts'
import {
  baseUrl,
  connectBrowser,
  downloadedFile,
  proofOfWorkHeaders,
  queryDb,
  shown,
  staffSessionCookies,
} from '../browser.ts'
import { fillClaim, SCREENSHOT_PNG, submitButton } from '../step2/fill-claim.ts'
import { requestAgreementLink } from '../agreements/agreement-link.ts'
import { EMAILS, fullName, NAMES, PAYLOADS } from './hostile-values.ts'

// one claimant (e-mail 0, this phone) files on five apps, so one lookup shows five signed agreements
const LOOKUP_PHONE = '3125550170'
const LOOKUP_APPS = [
  { slug: 'brigit', name: 'Brigit' },
  { slug: 'empower', name: 'Empower' },
  { slug: 'cleo', name: 'Cleo' },
  { slug: 'earnin', name: 'Earnin' },
  { slug: 'moneylion', name: 'MoneyLion' },
]
const BRIGIT_PHONES = ['3125550170', '3125550171', '3125550172', '3125550173', '3125550174']
const INTAKE_PHONES = [
  '(312) 555-0180',
  '(312) 555-0181',
  '(312) 555-0182',
  '(312) 555-0183',
  '(312) 555-0184',
]
const FIRM_NAME = 'Cash Advance Claims Law Group'
const SCREENSHOT = fs.readFileSync(SCREENSHOT_PNG)
const SIGNATURE = `data:image/png;base64,${SCREENSHOT.toString('base64')}`

/** The HTML record of the opened page's `appName` claim, by the download key the opened link kept in the tab. */
async function htmlRecordOf(page: Page, appName: string): Promise<string> {
  return page.evaluate(async (name) => {
    const opened = JSON.parse(sessionStorage.getItem('opened-agreements') ?? '{}') as {
      downloadKey: string
      agreements: { kind: string; appName: string; claimId?: number }[]
    }
    const agreement = opened.agreements.find((each) => each.kind === 'claim' && each.appName === name)
    const response = await fetch('/api/agreements/download', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ key: opened.downloadKey, claimId: agreement?.claimId, format: 'html' }),
    })
    if (!response.ok) throw new Error(`the HTML download answered ${response.status}`)
    return response.text()
  }, appName)
}

/** A Step 2 claim through the public API, as the form sends it (multipart: data JSON + screenshot). */
async function postClaim(
  slug: string,
  claimant: { firstName: string; lastName: string; email: string; phone: string },
) {
  const form = new FormData()
  form.set(
    'data',
    JSON.stringify({
      firstName: claimant.firstName,
      lastName: claimant.lastName,
      email: claimant.email,
      phoneNumber: claimant.phone,
      cashAdvanceCount: 3,
      membershipMonths: 12,
      signature: SIGNATURE,
    }),
  )
  form.set('screenshot', new Blob([SCREENSHOT], { type: 'image/png' }), 'statement.png')
  const response = await fetch(`${baseUrl()}/api/forms/${slug}/submissions`, {
    method: 'POST',
    headers: await proofOfWorkHeaders(),
    body: form,
  })
  expect({ slug, status: response.status, body: await response.text() }).toMatchObject({ slug, status: 201 })
}

async function pdfText(bytes: Buffer): Promise<string> {
  const document = await getDocument({ data: new Uint8Array(bytes), verbosity: 0 }).promise
  try {
    const parts: string[] = []
    for (let number = 1; number <= document.numPages; number++) {
      const content = await (await document.getPage(number)).getTextContent()
      for (const item of content.items) if ('str' in item) parts.push(item.str)
    }
    return parts.join('')
  } finally {
    await document.destroy()
  }
}

const withoutSpaces = (text: string) => text.replace(/\s+/g, '')

describe('hostile names and e-mails show as text on every page that shows them', () => {
  let browser: Browser
  let staff: BrowserContext
  let downloadsDir: string
  /** Every page opened here, with the dialogs it raised and its uncaught errors. */
  const watched: { page: Page; dialogs: string[]; errors: string[] }[] = []

  async function openPage(context: BrowserContext): Promise<Page> {
    const page = await context.newPage()
    const entry = { page, dialogs: [] as string[], errors: [] as string[] }
    page.on('dialog', (dialog) => {
      entry.dialogs.push(dialog.message())
      void dialog.dismiss()
    })
    page.on('pageerror', (error) => entry.errors.push(error.message))
    watched.push(entry)
    return page
  }

  /**
   * Nothing the claimant typed ran (no window.__pwned, no dialog) and nothing became an element (no
   * handler attribute, inline script or <img src=x>): the site's CSP would stop the script, so the DOM
   * check is what shows the text stayed text.
   */
  async function expectNothingRan(page: Page): Promise<void> {
    const entry = watched.find((candidate) => candidate.page === page)!
    const found = await page.evaluate(() => ({
      pwned: (window as unknown as { __pwned?: unknown }).__pwned ?? null,
      injected: [...document.querySelectorAll('[onerror], [onload], script:not([src]), img[src="x"]')].map(
        (element) => element.outerHTML.slice(0, 80),
      ),
    }))
    expect({ url: page.url(), ...found, dialogs: entry.dialogs }).toEqual({
      url: page.url(),
      pwned: null,
      injected: [],
      dialogs: [],
    })
  }

  beforeAll(async () => {
    browser = await connectBrowser()
    downloadsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-downloads-'))
    // brigit claims 1-4 and the lookup claimant's other four apps; brigit claim 0 goes through the form below
    for (let i = 1; i < NAMES.length; i++) {
      await postClaim('brigit', { ...NAMES[i]!, email: EMAILS[i]!, phone: BRIGIT_PHONES[i]! })
      await postClaim(LOOKUP_APPS[i]!.slug, { ...NAMES[i]!, email: EMAILS[0]!, phone: LOOKUP_PHONE })
    }
    for (let i = 0; i < NAMES.length; i++) {
      const response = await fetch(`${baseUrl()}/api/intake`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', ...(await proofOfWorkHeaders()) },
        body: JSON.stringify(
          intakeBody({
            ...NAMES[i],
            email: EMAILS[i],
            phone: INTAKE_PHONES[i],
            address: `${PAYLOADS[(2 * i + 2) % PAYLOADS.length]} ${PAYLOADS[(2 * i + 3) % PAYLOADS.length]}`,
            city: PAYLOADS[2 * i],
          }),
        ),
      })
      expect(response.status).toBe(201)
    }
    staff = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true })
    // the run's one shared sign-in: the gate is dashboard.spec.ts's subject
    await staff.addCookies(await staffSessionCookies())
  })

  /**
   * Brigit claim 0 is filed through the form by the first test; a test run without it files the same
   * claim through the API, so each test finds all five.
   */
  async function claimZeroFiled(): Promise<void> {
    const stored = queryDb(
      "SELECT id FROM claims WHERE app = 'brigit' AND phone_number = ?",
      formatPhone(BRIGIT_PHONES[0]!),
    )
    if (stored.length === 0) {
      await postClaim('brigit', { ...NAMES[0]!, email: EMAILS[0]!, phone: BRIGIT_PHONES[0]! })
    }
  }

  /** The Brigit dashboard, signed in, searched down to the five hostile claims. */
  async function openDashboard(): Promise<Page> {
    await claimZeroFiled()
    const page = await openPage(staff)
    await page.goto(`${baseUrl()}/brigit-admin`)
    await shown(page.getByRole('heading', { level: 1, name: 'Brigit Admin Dashboard' }))
    await page.getByRole('searchbox', { name: 'Search submissions' }).fill('312555017')
    await shown(page.getByText(/^Search results: 5 of \d+ submissions$/))
    return page
  }
  afterAll(async () => {
    await browser?.close()
    if (downloadsDir) fs.rmSync(downloadsDir, { recursive: true, force: true })
  })

  it('fills the Step 2 agreement live with each payload as literal text, and files the claim', async () => {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } })
    const page = await openPage(context)
    await page.goto(`${baseUrl()}/brigit`)
    const agreement = page.getByTestId('agreement-text')
    await shown(agreement)
    for (let i = NAMES.length - 1; i >= 0; i--) {
      await page.getByLabel('First Name').fill(NAMES[i]!.firstName)
      await page.getByLabel('Last Name').fill(NAMES[i]!.lastName)
      await page.getByLabel('Email Address').fill(EMAILS[i]!)
      const text = await agreement.innerText()
      expect(text).toContain(
        `This agreement is between ${fullName(i)} ("you" or "the client") and ${FIRM_NAME}`,
      )
      expect(text).toContain(`Name: ${fullName(i)}`)
      expect(text).toContain(`E-mail: ${EMAILS[i]}`)
      await expectNothingRan(page)
    }

    // the last pair typed is claimant 0's: sign and send it the way a person does
    await fillClaim(page, { ...NAMES[0]!, email: EMAILS[0]!, phoneDigits: BRIGIT_PHONES[0]! })
    expect(await agreement.innerText()).toContain(`Name: ${fullName(0)}`)
    await submitButton(page, 'Brigit').click()
    await page.waitForURL('**/brigit-success')
    await expectNothingRan(page)
    const stored = queryDb<{ first_name: string; last_name: string; email: string }>(
      "SELECT first_name, last_name, email FROM claims WHERE app = 'brigit' AND phone_number = ?",
      formatPhone(BRIGIT_PHONES[0]!),
    )
    expect(stored).toEqual([{ ...toRow(NAMES[0]!), email: EMAILS[0] }])
    await context.close()
  })

  it('shows every payload literally in the Brigit dashboard list, its details and a hostile search', async () => {
    const page = await openDashboard()
    const search = page.getByRole('searchbox', { name: 'Search submissions' })
    for (let i = 0; i < NAMES.length; i++) {
      const row = page.getByRole('row').filter({ hasText: formatPhone(BRIGIT_PHONES[i]!) })
      await shown(row.getByRole('cell', { name: fullName(i), exact: true }))
      await shown(row.getByRole('cell', { name: EMAILS[i]!, exact: true }))
      await row.getByRole('button', { name: 'View Details' }).click()
      const details = page.getByRole('region', { name: 'Selected Submission Details' })
      await shown(details.getByText(fullName(i), { exact: true }))
      await shown(details.getByText(EMAILS[i]!, { exact: true }))
      await shown(details.getByRole('img', { name: `Bank statement screenshot from ${fullName(i)}` }))
    }
    await expectNothingRan(page)

    // the search term itself is echoed in the results line and the empty state
    await search.fill(PAYLOADS[1])
    await shown(page.getByRole('cell', { name: fullName(0), exact: true }))
    const miss = `${PAYLOADS[9]}zz-no-such-claim`
    await search.fill(miss)
    await shown(page.getByText(`No submissions match "${miss}"`, { exact: true }))
    await expectNothingRan(page)
  })

  // the exports' cells (neutralised formulas, quoting) are tests/server/platform/e2e-moved-hostile-csv.test.ts's
  it("shows the intakes literally in the main page's admin list", async () => {
    const page = await openPage(staff)
    await page.goto(`${baseUrl()}/?key=anything`)
    await shown(page.getByRole('heading', { level: 1, name: 'All Submissions' }))
    for (let i = 0; i < NAMES.length; i++) {
      const row = page.getByRole('row').filter({ hasText: INTAKE_PHONES[i]! })
      await shown(row.getByRole('cell', { name: fullName(i), exact: true }))
      await shown(row.getByRole('cell', { name: EMAILS[i]!, exact: true }))
    }
    await expectNothingRan(page)
  })

  it('finds the five signed agreements with every payload as text, and downloads a PDF and keeps an HTML record that run nothing', async () => {
    await claimZeroFiled()
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      acceptDownloads: true,
    })
    const page = await openPage(context)
    await page.goto(`${baseUrl()}/view-agreement`)
    await page.goto(await requestAgreementLink(page, { email: EMAILS[0]!, phone: LOOKUP_PHONE }))
    await shown(page.getByRole('heading', { name: 'Agreement Found!' }))

    const viewer = await openPage(context)
    for (let i = 0; i < LOOKUP_APPS.length; i++) {
      const app = LOOKUP_APPS[i]!
      const card = page.getByRole('article').filter({ hasText: `We found your ${app.name} agreement` })
      await shown(card.getByText(fullName(i), { exact: true }))
      await shown(card.getByText(EMAILS[0]!, { exact: true }))
      const text = await card.getByLabel(`${app.name} agreement as signed`).innerText()
      expect(text).toContain(`Name: ${fullName(i)}`)
      expect(text).toContain(`E-mail: ${EMAILS[0]}`)

      // the HTML record, as the e-mailed copy carries it (the page offers the PDF alone), fetched by the
      // opened link's download key; opened from disk, as a claimant would: no server sends a CSP there
      const file = path.join(downloadsDir, `${app.slug}-agreement.html`)
      fs.writeFileSync(file, await htmlRecordOf(page, app.name))
      await viewer.goto(pathToFileURL(file).href)
      const downloaded = await viewer.locator('body').innerText()
      expect(downloaded).toContain(`Name: ${fullName(i)}`)
      expect(downloaded).toContain(`E-mail: ${EMAILS[0]}`)
      await expectNothingRan(viewer)
      // and the file's own policy stops an inline script that got in anyway
      const inlineRan = await viewer.evaluate(() => {
        const script = document.createElement('script')
        script.textContent = 'window.__inline = 1'
        document.body.append(script)
        script.remove()
        return (window as unknown as { __inline?: unknown }).__inline ?? null
      })
      expect(inlineRan).toBeNull()

      const [pdf] = await Promise.all([
        page.waitForEvent('download'),
        card.getByRole('button', { name: `Download your ${app.name} agreement (PDF)` }).click(),
      ])
      const bytes = fs.readFileSync(await downloadedFile(pdf))
      expect(withoutSpaces(await pdfText(bytes))).toContain(withoutSpaces(`Name: ${fullName(i)}`))
      // no action that could run when the PDF opens (the compressed streams are left out of the search)
      const objects = bytes.toString('latin1').replace(/stream[\s\S]*?endstream/g, '')
      expect(objects).not.toMatch(/\/(JavaScript|JS|OpenAction|Launch|AA)\b/)
    }
    const brigit = await page.getByLabel('Brigit agreement as signed').innerText()
    expect(brigit).toContain(
      `This agreement is between ${fullName(0)} ("you" or "the client") and ${FIRM_NAME}`,
    )
    await expectNothingRan(page)
    expect(watched.flatMap((entry) => entry.errors)).toEqual([])
    await context.close()
  })
})

function toRow(name: { firstName: string; lastName: string }) {
  return { first_name: name.firstName, last_name: name.lastName }
}
