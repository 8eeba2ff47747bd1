import type { Browser } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOwnServer, type OwnServer } from '../own-server.ts'
import { invitationTo, mailsTo } from '../../server/support/agreement-link.ts'
import { connectBrowser, shown } from '../browser.ts'
import { codeFor, enterPassword, openPage, setUpTwoFactorAtGate, signOut } from './two-factor-steps.ts'

const ADMIN = { email: 'founding.admin@e2e.test', password: 'founding admin e2e password' }
const PARALEGAL = { email: 'parker.paralegal@e2e.test', password: 'parker brigit only 2026' }

/**
 * The whole path on a server of its own that requires two-factor sign-in of everyone: the admin
 * sets it up at the gate, invites a paralegal with brigit only; the paralegal takes the e-mailed link,
 * sets a password, sets up two-factor sign-in (with no code e-mailed: the link vouched for the mailbox),
 * and sees Brigit alone.
 */
describe('an admin invites a paralegal for brigit, who signs in with two-factor sign-in', () => {
  let browser: Browser
  let server: OwnServer

  beforeAll(async () => {
    server = await startOwnServer('journey', {
      REQUIRE_2FA: 'all',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
    })
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  const subjectsTo = (email: string) =>
    mailsTo(server.dataDir, email).map(({ eml }) => /^Subject: (.*)$/m.exec(eml)?.[1])

  it('works from the invitation to the brigit dashboard, in the browser', async () => {
    const admin = await openPage(browser, '203.0.113.61', { width: 1280, height: 900 })
    await admin.page.goto(`${server.url}/staff/accounts`)
    await enterPassword(admin.page, ADMIN.email, ADMIN.password)
    await setUpTwoFactorAtGate(admin.page, { dataDir: server.dataDir, email: ADMIN.email })
    await shown(admin.page.getByRole('heading', { name: 'Invite a person' }))
    await admin.page.getByLabel('Email', { exact: true }).fill(PARALEGAL.email)
    await admin.page.getByLabel('Name', { exact: true }).fill('Parker Paralegal')
    await admin.page.getByRole('checkbox', { name: 'Brigit', exact: true }).check()
    await admin.page.getByRole('button', { name: 'Send invitation' }).click()
    await shown(admin.page.getByText(`Invitation sent to ${PARALEGAL.email}`))

    const link = invitationTo(server.dataDir, PARALEGAL.email).url
    expect(link.startsWith(`${server.url}/staff/invite#token=`)).toBe(true)

    const { page, pageErrors } = await openPage(browser, '203.0.113.62')
    await page.goto(link)
    await page.getByLabel('New password', { exact: true }).fill(PARALEGAL.password)
    await page.getByRole('button', { name: 'Set password' }).click()
    await shown(page.getByText('Your password is set.'))
    await page.getByRole('link', { name: 'Sign in to the staff pages' }).click()
    await enterPassword(page, PARALEGAL.email, PARALEGAL.password)
    // the invitation's link vouched for the mailbox: straight to the QR code, no set-up code e-mailed
    const key = await setUpTwoFactorAtGate(page)
    expect(subjectsTo(PARALEGAL.email)).not.toContain('Your code to set up two-factor sign-in')

    await shown(page.getByRole('heading', { name: 'Your dashboards' }))
    const dashboards = page.getByRole('region', { name: 'Your dashboards' }).getByRole('link')
    await shown(dashboards)
    expect(await dashboards.allInnerTexts()).toEqual(['Brigit'])
    expect(await shown(page.getByText(/Signed in as/))).toContain('Parker Paralegal')

    await page.goto(`${server.url}/earnin-admin`)
    expect(await shown(page.getByRole('alert'))).toMatch(/does not have access to this page/)
    await signOut(page)
    await page.goto(`${server.url}/brigit-admin`)
    await enterPassword(page, PARALEGAL.email, PARALEGAL.password)
    await shown(page.getByText('Enter the 6-digit code from your authenticator app.'))
    await page.getByLabel('Code', { exact: true }).fill(codeFor(key, 1))
    await page.getByRole('button', { name: 'Verify code' }).click()
    await shown(page.getByRole('heading', { name: 'Brigit Admin Dashboard' }))
    expect([...pageErrors, ...admin.pageErrors]).toEqual([])
  })
})
