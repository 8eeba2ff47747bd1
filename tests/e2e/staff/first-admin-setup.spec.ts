import fs from 'node:fs'
import path from 'node:path'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOwnServer, type OwnServer } from '../own-server.ts'
import { SETUP_LINK_FILE } from '../../../server/staff/first-admin.ts'
import { connectBrowser, shown } from '../browser.ts'
import { tabTo, typeText } from '../keyboard.ts'
import { enterPassword, openPage, signOut } from './two-factor-steps.ts'

const FOUNDER = { email: 'first.admin@e2e.test', name: 'Frances First', password: 'the founding passphrase' }
const NEW_PASSWORD = 'a second founding passphrase'

/** Whether the page is wider than its window (a phone would scroll sideways). */
const isWiderThanWindow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)

/**
 * A fresh install with no ADMIN_EMAIL: the operator opens the set-up link the server wrote into DATA_DIR,
 * creates the first admin on a phone with the keyboard alone, and later changes that password on
 * /staff/account.
 */
describe('the first admin, from the set-up link to a changed password', () => {
  let browser: Browser
  let server: OwnServer

  beforeAll(async () => {
    server = await startOwnServer('setup')
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('creates the admin with the keyboard on a phone, once, and the admin changes the password', async () => {
    const linkFile = fs.readFileSync(path.join(server.dataDir, SETUP_LINK_FILE), 'utf8')
    // the file names the configured port; this server listens on a free one (PORT=0), found after
    const token = /\/staff\/setup#token=([\w-]+)/.exec(linkFile)?.[1]
    expect(token).toBeDefined()
    const link = `${server.url}/staff/setup#token=${token}`

    const phone = await openPage(browser, '203.0.113.71')
    await phone.page.goto(link)
    await shown(phone.page.getByText("This account will be the firm's first admin."))
    await tabTo(phone.page, 'input[type="email"]')
    await typeText(phone.page, FOUNDER.email)
    await tabTo(phone.page, 'input[autocomplete="name"]')
    await typeText(phone.page, FOUNDER.name)
    await tabTo(phone.page, 'input[autocomplete="new-password"]')
    await typeText(phone.page, FOUNDER.password)
    expect(await isWiderThanWindow(phone.page)).toBe(false)
    await phone.page.keyboard.press('Enter')
    // the set-up signs the admin in: straight on to their dashboards, no second password
    await shown(phone.page.getByRole('heading', { name: 'Your dashboards' }))
    expect(await shown(phone.page.getByText(/Signed in as/))).toContain(FOUNDER.name)
    // staff pages are English: no claimant language switch
    expect(await phone.page.getByRole('navigation', { name: 'Language' }).count()).toBe(0)

    // the link works once
    const again = await openPage(browser, '203.0.113.72')
    await again.page.goto(link)
    expect(await shown(again.page.getByRole('alert'))).toMatch(/\.$/)
    expect(await again.page.getByRole('button', { name: 'Set password' }).count()).toBe(0)

    const desk = await openPage(browser, '203.0.113.73', { width: 1280, height: 900 })
    await desk.page.goto(`${server.url}/staff/account`)
    await enterPassword(desk.page, FOUNDER.email, FOUNDER.password)
    await shown(desk.page.getByRole('heading', { name: 'My account' }))
    const details = await shown(desk.page.locator('dl'))
    expect(details).toContain(FOUNDER.name)
    expect(details).toContain(FOUNDER.email)
    expect(details).toContain('Admin')
    await desk.page.getByLabel('Current password', { exact: true }).fill(FOUNDER.password)
    await desk.page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD)
    await desk.page.getByRole('button', { name: 'Change password' }).click()
    await shown(
      desk.page.getByText(
        'Your password is changed. Other browsers signed in to your account were signed out.',
      ),
    )

    // the phone's session ended with the change; the old password no longer opens the gate
    await phone.page.reload()
    await shown(phone.page.getByLabel('Password', { exact: true }))
    await enterPassword(phone.page, FOUNDER.email, FOUNDER.password)
    await shown(phone.page.getByRole('alert'))
    await enterPassword(phone.page, FOUNDER.email, NEW_PASSWORD)
    await shown(phone.page.getByRole('heading', { name: 'Your dashboards' }))

    await signOut(desk.page)
    expect([...phone.pageErrors, ...again.pageErrors, ...desk.pageErrors]).toEqual([])
  })
})
