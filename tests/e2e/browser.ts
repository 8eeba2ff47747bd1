import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import Database from 'better-sqlite3'
import { chromium, type Browser, type Download, type Locator, type Page } from 'playwright-core'
import { expect, inject } from 'vitest'
import { SQLITE_FILE_NAME } from '../../server/db/create-db.ts'
import {
  encodeProofOfWork,
  PROOF_OF_WORK_HEADER,
  solveProofOfWork,
  type ProofOfWorkChallenge,
} from '../../src/proof-of-work.ts'

/**
 * A connection to the run's one Chromium (global-setup.ts starts it): contexts and pages opened through
 * it close when the spec closes it in its afterAll.
 */
export async function connectBrowser(): Promise<Browser> {
  return chromium.connect(inject('browserEndpoint'))
}

/**
 * The downloaded file's path on this machine. The browser runs beside the test rather than under it, so
 * the file comes over the connection (Download.path() works only in a browser the test launched).
 */
export async function downloadedFile(download: Download): Promise<string> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-download-'))
  const file = path.join(folder, download.suggestedFilename())
  await download.saveAs(file)
  return file
}

/** Saves a screenshot for a person to look at when E2E_SCREENSHOTS names a folder; nothing compares them. */
export async function keepScreenshot(page: Page, name: string): Promise<void> {
  const folder = process.env.E2E_SCREENSHOTS
  if (folder) await page.screenshot({ path: path.join(folder, `${name}.png`), fullPage: true })
}

/** A phone-sized page that fails the test on any uncaught page error. */
export async function openPhonePage(browser: Browser): Promise<{ page: Page; pageErrors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 390, height: 844 } })
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  return { page, pageErrors }
}

/**
 * A spec's one phone page, handed to each of its tests to open an address with goto: a new page costs
 * Chromium a renderer and a compile of the client's code, a navigation of the same page neither. What
 * the page stores (the chosen language) lasts across the tests, as it does across a claimant's visits.
 */
export function reusedPhonePage(): (browser: Browser) => Promise<{ page: Page; pageErrors: string[] }> {
  let opened: { page: Page; pageErrors: string[] } | undefined
  return async (browser) => {
    if (!opened || opened.page.isClosed()) opened = await openPhonePage(browser)
    opened.pageErrors.length = 0
    return opened
  }
}

export function baseUrl(): string {
  return inject('baseUrl')
}

/** Reads the e2e server's SQLite file (read-only) to check what was stored. */
export function queryDb<T>(sql: string, ...params: unknown[]): T[] {
  return queryDbIn(inject('dataDir'), sql, ...params)
}

/** The same, for a server a test starts on its own DATA_DIR. */
export function queryDbIn<T>(dataDir: string, sql: string, ...params: unknown[]): T[] {
  const db = new Database(path.join(dataDir, SQLITE_FILE_NAME), { readonly: true })
  try {
    return db.prepare(sql).all(...params) as T[]
  } finally {
    db.close()
  }
}

/**
 * Waits (up to 10 s, or `timeoutMs`) for the element to show, as a person would, and gives its text;
 * throws if it never shows.
 */
export async function shown(locator: Locator, timeoutMs = 10_000): Promise<string> {
  await locator.first().waitFor({ state: 'visible', timeout: timeoutMs })
  return (await locator.first().innerText()).trim()
}

/**
 * Chooses a language in the page's English | Español switch and waits (up to 30 s) until the switch
 * shows it chosen, which it does once that language's texts have arrived. A press that lands while the
 * page is still starting is pressed again, as a person would when nothing happened.
 */
export async function chooseLanguage(page: Page, label: 'English' | 'Español'): Promise<void> {
  const choice = page.getByRole('button', { name: label, exact: true })
  await expect
    .poll(
      async () => {
        if ((await choice.getAttribute('aria-pressed')) !== 'true') await choice.click()
        return choice.getAttribute('aria-pressed')
      },
      { timeout: 30_000, interval: 2_000 },
    )
    .toBe('true')
}

/**
 * A staff session for specs that look at staff pages rather than test the login: one login per test
 * run, shared through DATA_DIR (the login is limited to 10 a quarter hour per address, and every spec
 * runs from 127.0.0.1). Give it to a context with `context.addCookies(await staffSessionCookies())`.
 */
export async function staffSessionCookies(): Promise<{ name: string; value: string; url: string }[]> {
  const file = path.join(inject('dataDir'), 'e2e-staff-session.json')
  if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8')) as never
  const response = await fetch(`${baseUrl()}/api/staff/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Origin: baseUrl() },
    body: JSON.stringify({ email: inject('adminEmail'), password: inject('adminPassword') }),
  })
  if (response.status !== 204) throw new Error(`the staff login answered ${response.status}`)
  const cookies = response.headers.getSetCookie().map((header) => {
    const [pair = ''] = header.split(';')
    const at = pair.indexOf('=')
    return { name: pair.slice(0, at), value: pair.slice(at + 1), url: baseUrl() }
  })
  fs.writeFileSync(file, JSON.stringify(cookies))
  return cookies
}

/**
 * The X-Proof-Of-Work header a spec's own POST to the claim, intake or lookup endpoint needs, solved
 * here in Node as the page's worker does it. Each is good for one POST.
 */
export async function proofOfWorkHeaders(): Promise<Record<string, string>> {
  const response = await fetch(`${baseUrl()}/api/proof-of-work`)
  if (response.status === 204) return {}
  const challenge = (await response.json()) as ProofOfWorkChallenge
  const number = solveProofOfWork(challenge)
  if (number === undefined) throw new Error("no number solves the server's challenge")
  return { [PROOF_OF_WORK_HEADER]: encodeProofOfWork(challenge, number) }
}
