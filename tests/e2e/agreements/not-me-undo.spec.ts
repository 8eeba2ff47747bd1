import fs from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { axeViolations } from '../accessibility/axe.ts'
import { connectBrowser, keepScreenshot, queryDb, shown } from '../browser.ts'
import { tabTo } from '../keyboard.ts'
import { fileClaim } from '../seed.ts'

// "This wasn't me" on the /confirm page asks once, and can be taken back within the day; the page
// shows the earlier answer when the link is opened again.

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
      const text = eml.replace(/=\r?\n/g, '').replace(/=3D/g, '=')
      const link = /https?:\/\/\S+?\/confirm(?:\?lang=\w+)?#token=[A-Za-z0-9_-]+/.exec(text)?.[0]
      if (link) return link
    }
    if (Date.now() > deadline) throw new Error(`no copy to ${email} in the outbox`)
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

const disownedAt = (email: string) =>
  queryDb<{ disowned_at: number | null }>('SELECT disowned_at FROM claims WHERE email = ?', email)[0]
    ?.disowned_at ?? null

const TEXT = {
  en: {
    notMe: "This wasn't me",
    question: /^Are you sure\? We will tell our team/,
    thanks: /^Thank you for telling us\./,
    earlier: /^You told us on .+ that this wasn’t you\.$/,
    undo: 'Undo: it was me',
    undone: /^Taken back: this claim goes on as before\./,
    confirm: 'Confirm it was you',
  },
  es: {
    notMe: 'No fui yo',
    question: /^¿Está seguro\? Le diremos a nuestro equipo/,
    thanks: /^Gracias por/,
    earlier: /^Nos dijo el .+ que no fue usted\.$/,
    undo: 'Deshacer: sí fui yo',
    undone: /^Deshecho: este reclamo sigue como antes\./,
    confirm: 'Confirme que fue usted',
  },
} as const

async function openLink(browser: Browser, link: string, width: number): Promise<Page> {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 } })
  const page = await context.newPage()
  await page.goto(link)
  return page
}

describe('"This wasn\'t me" on the confirm page asks once and can be taken back', () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })

  for (const { width, locale, seq } of [
    { width: 390, locale: 'en', seq: '81' },
    { width: 1280, locale: 'en', seq: '82' },
    { width: 390, locale: 'es', seq: '83' },
  ] as const) {
    it(`asks, disowns, shows the earlier answer and undoes it with the keyboard alone (${width} px, ${locale})`, async () => {
      const email = `not.me.undo.${seq}@example.com`
      await fileClaim('brigit', { firstName: 'Una', lastName: 'Undo', email, phoneDigits: `60255501${seq}` })
      const english = await linkFromOutbox(email)
      const link = locale === 'en' ? english : english.replace('/confirm#', `/confirm?lang=${locale}#`)
      const text = TEXT[locale]
      const page = await openLink(browser, link, width)
      const pageErrors: string[] = []
      page.on('pageerror', (error) => pageErrors.push(error.message))
      await shown(page.locator('.linked-claim'))

      await page.locator('body').focus()
      await tabTo(page, '.confirm-actions button.secondary')
      await page.keyboard.press('Enter')
      // the question takes focus, so a second press of the same key answers nothing
      await shown(page.getByText(text.question))
      expect(await page.evaluate(() => document.activeElement?.textContent ?? '')).toMatch(text.question)
      await page.keyboard.press('Enter')
      expect(disownedAt(email)).toBeNull()
      expect(await axeViolations(page)).toEqual([])
      await keepScreenshot(page, `not-me-question-${width}-${locale}`)

      await tabTo(page, '.not-me-question button.primary')
      await page.keyboard.press('Enter')
      await shown(page.getByRole('status').filter({ hasText: text.thanks }))
      await expect.poll(() => disownedAt(email)).not.toBeNull()
      expect(await page.getByRole('button', { name: text.confirm, exact: true }).count()).toBe(0)

      // opened again, the page says the earlier answer and offers its undo
      await page.reload()
      await shown(page.getByText(text.earlier))
      expect(await axeViolations(page)).toEqual([])
      await keepScreenshot(page, `not-me-earlier-${width}-${locale}`)
      await page.locator('body').focus()
      await tabTo(page, '.not-me-answer button')
      await page.keyboard.press('Enter')
      await shown(page.getByRole('status').filter({ hasText: text.undone }))
      await expect.poll(() => disownedAt(email)).toBeNull()
      await shown(page.getByRole('button', { name: text.confirm, exact: true }))
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true)
      expect(pageErrors).toEqual([])
      await page.context().close()
    })
  }
})
