import fs from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { baseUrl, connectBrowser, keepScreenshot, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { axeViolations } from '../accessibility/axe.ts'
import { tabTo } from '../keyboard.ts'
import { fileClaim } from '../seed.ts'

// an e-mail and phone no other spec uses
const CLAIMANT = {
  firstName: 'Cora',
  lastName: 'Confirmer',
  email: 'cora.confirmer@example.com',
  phoneDigits: '6025550177',
}
const COPY_WAIT_MS = 45_000

/** The confirmation link of the copy e-mailed to `email`, once the server has written it to the outbox. */
async function linkFromOutbox(email: string): Promise<string> {
  const outbox = path.join(inject('dataDir'), 'outbox')
  const deadline = Date.now() + COPY_WAIT_MS
  for (;;) {
    const emls = fs.existsSync(outbox)
      ? fs
          .readdirSync(outbox)
          .filter((name) => name.endsWith('.eml'))
          .map((name) => fs.readFileSync(path.join(outbox, name), 'utf8'))
      : []
    const eml = emls.find((text) => text.includes(`To: ${email}`))
    if (eml) {
      // quoted-printable: soft line breaks, and "=" written as =3D
      const text = eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
      const link = /https?:\/\/\S+?\/confirm(?:\?lang=\w+)?#token=[A-Za-z0-9_-]+/.exec(text)?.[0]
      if (!link) throw new Error('the copy holds no confirmation link')
      return link
    }
    if (Date.now() > deadline) throw new Error(`no copy to ${email} in the outbox`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

/** A page in a context of its own (axe-core needs one), at this size. */
async function newPage(browser: Browser, viewport: { width: number; height: number }): Promise<Page> {
  const context = await browser.newContext({ viewport })
  return context.newPage()
}

function storedConfirmation() {
  return queryDb<{ confirmed_at: string | null; confirmed_user_agent: string | null }>(
    'SELECT confirmed_at, confirmed_user_agent FROM claims WHERE email = ?',
    CLAIMANT.email,
  )[0]
}

describe("a claimant confirms their claim from the e-mail's link, and staff see it", () => {
  let browser: Browser
  let link: string
  beforeAll(async () => {
    browser = await connectBrowser()
    await fileClaim('brigit', CLAIMANT)
    link = await linkFromOutbox(CLAIMANT.email)
  })
  afterAll(async () => {
    await browser.close()
  })

  /** Confirms the claim from the link unless it is confirmed already, so each test can start from it. */
  async function confirmedOnce(): Promise<string> {
    if (!storedConfirmation()?.confirmed_at) {
      const page = await newPage(browser, { width: 390, height: 844 })
      await page.goto(link)
      await page.getByRole('button', { name: 'Confirm it was you' }).click()
      await shown(page.getByText(/^Your claim (is|was already) confirmed/))
      await page.context().close()
    }
    return storedConfirmation()!.confirmed_at!
  }

  it('opens the link on a phone, confirms with the keyboard alone, and the claim is confirmed', async () => {
    expect(link.startsWith(`${baseUrl()}/confirm#token=`)).toBe(true)
    const page = await newPage(browser, { width: 390, height: 844 })
    const pageErrors: string[] = []
    page.on('pageerror', (error) => pageErrors.push(error.message))
    await page.goto(link)
    expect(await shown(page.getByRole('heading', { level: 1 }))).toBe('Confirm it was you')
    // opening the page confirms nothing: a mail scanner that follows the link does not confirm
    expect(storedConfirmation()?.confirmed_at).toBeNull()
    // the page names the claim the link is for, and offers the other answer
    expect(await shown(page.locator('.linked-claim'))).toMatch(
      /^This link is for your Brigit claim number \d+, filed on .+\.$/,
    )
    expect(await page.getByRole('button', { name: "This wasn't me" }).count()).toBe(1)
    await keepScreenshot(page, 'confirm-390')
    expect(await axeViolations(page)).toEqual([])

    await tabTo(page, 'button.primary')
    await page.keyboard.press('Enter')
    await shown(page.getByText('Your claim is confirmed. Thank you for letting us know it was you.'))
    await keepScreenshot(page, 'confirmed-390')
    const stored = storedConfirmation()
    expect(stored?.confirmed_at).toMatch(/^\d{4}-\d\d-\d\dT/)
    expect(stored?.confirmed_user_agent).toMatch(/Chrome/)
    expect(pageErrors).toEqual([])
  })

  it('shows the earlier confirmation when the link is used again, keeping the first time', async () => {
    const first = await confirmedOnce()
    const page = await newPage(browser, { width: 1280, height: 800 })
    await page.goto(link)
    await shown(page.getByText(/^You confirmed this on .+\.$/))
    // answered already: nothing to press again
    expect(await page.getByRole('button', { name: 'Confirm it was you' }).count()).toBe(0)
    expect(await page.getByRole('button', { name: "This wasn't me" }).count()).toBe(0)
    await keepScreenshot(page, 'already-1280')
    expect(storedConfirmation()?.confirmed_at).toBe(first)
  })

  it('tells the claimant when the link is incomplete or not valid', async () => {
    const page = await newPage(browser, { width: 1280, height: 800 })
    await page.goto(`${baseUrl()}/confirm#token=cut-sho`)
    expect(await shown(page.getByRole('alert'))).toMatch(/^This confirmation link is incomplete/)
    expect(await page.getByRole('button', { name: 'Confirm it was you' }).count()).toBe(0)

    await page.goto(`${baseUrl()}/confirm#token=${'A'.repeat(43)}`)
    await page.reload()
    await page.getByRole('button', { name: 'Confirm it was you' }).click()
    expect(await shown(page.getByRole('alert'))).toMatch(/^This confirmation link is not valid/)
    await keepScreenshot(page, 'invalid-1280')
    expect(await axeViolations(page)).toEqual([])
  })

  it('shows staff the claim as confirmed, and finds it with the Confirmed filter', async () => {
    await confirmedOnce()
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await context.addCookies(await staffSessionCookies())
    const page = await context.newPage()
    await page.goto(`${baseUrl()}/brigit-admin`)
    await page.getByLabel('Confirmed').selectOption({ label: 'Confirmed' })
    await page.getByRole('searchbox', { name: 'Search submissions' }).fill('cora.confirmer')
    await shown(page.getByText(/^Search results: 1 of \d+ submissions$/))
    const row = page.getByRole('row').filter({ hasText: CLAIMANT.email })
    const confirmedCell = row.locator('td[data-column="confirmedAt"]')
    expect(await shown(confirmedCell)).not.toBe('—')
    // the figures' one-line summary
    expect(await shown(page.locator('.stats-fold > summary'))).toMatch(/ · \d+% confirmed/)
    await keepScreenshot(page, 'staff-1280')

    await page.getByLabel('Confirmed').selectOption({ label: 'Not confirmed' })
    await shown(page.getByText('No submissions match "cora.confirmer"'))
    await page.setViewportSize({ width: 390, height: 844 })
    await page.getByLabel('Confirmed').selectOption({ label: 'All' })
    await shown(page.getByText(/^Search results: 1 of \d+ submissions$/))
    await keepScreenshot(page, 'staff-390')
    await context.close()
  })
})
