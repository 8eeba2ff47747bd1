import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOwnServer, type OwnServer } from '../own-server.ts'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, shown } from '../browser.ts'
import { mailsTo } from '../../server/support/agreement-link.ts'
import { addStaffAccount } from './staff-account.ts'
import {
  EMAIL_CODE_SENT_MESSAGE,
  INVALID_EMAIL_CODE_MESSAGE,
  SETUP_REQUIRED_MESSAGE,
} from '../../../src/two-factor-messages.ts'
import {
  codeFor,
  enterEmailedCode,
  enterPassword as enterAnyPassword,
  openPage,
  shownKey,
  shownRecoveryCodes,
  signOut,
  startSetupOnOwnPage,
} from './two-factor-steps.ts'

const PASSWORD = 'two-factor e2e password'
const enterPassword = (page: Page, email: string) => enterAnyPassword(page, email, PASSWORD)

describe('two-factor sign-in set up at the gate (REQUIRE_2FA=all)', () => {
  let browser: Browser
  let server: OwnServer
  const email = 'gate.person@e2e.test'

  beforeAll(async () => {
    server = await startOwnServer('2fa', {
      REQUIRE_2FA: 'all',
      // a first admin, so the server does not print a fresh install's set-up link
      ADMIN_EMAIL: 'first.admin@e2e.test',
      ADMIN_PASSWORD: 'first admin e2e password',
    })
    await addStaffAccount(
      {
        email,
        name: 'Gale Gatekeeper',
        role: 'staff',
        apps: [{ app: 'brigit', canExport: false }],
        password: PASSWORD,
      },
      server.dataDir,
    )
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.stop()
  })

  it('asks for the e-mailed code, sets up TOTP from the QR step, then signs in with a code and with a recovery code', async () => {
    const { page, pageErrors } = await openPage(browser, '203.0.113.41')
    await page.goto(`${server.url}/brigit-admin`)
    await enterPassword(page, email)

    // the password alone shows no QR code: first the code sent to the account's own address
    await shown(page.getByRole('heading', { name: 'Set up two-factor sign-in' }))
    await shown(page.getByText(EMAIL_CODE_SENT_MESSAGE))
    const emailField = page.getByLabel('Code from the e-mail')
    expect(await emailField.evaluate((input) => input === document.activeElement)).toBe(true)
    expect(await emailField.getAttribute('inputmode')).toBe('numeric')
    expect(await page.locator('code.totp-key').count()).toBe(0)
    expect(await axeViolations(page)).toEqual([])
    await emailField.fill('00000000')
    await page.getByRole('button', { name: 'Continue' }).click()
    expect(await shown(page.getByRole('alert'))).toBe(INVALID_EMAIL_CODE_MESSAGE)
    expect(await page.locator('code.totp-key').count()).toBe(0)
    // the sign-in limit (10 a quarter hour from one address) leaves room for one more e-mail, not for
    // trying the old code too (tests/server/staff/two-factor.test.ts does)
    await page.getByRole('button', { name: 'Send a new code' }).click()
    expect(await shown(page.getByRole('status'))).toBe('We have sent a new code. Only the newest code works.')
    expect(mailsTo(server.dataDir, email)).toHaveLength(2)
    expect(await emailField.evaluate((input) => input === document.activeElement)).toBe(true)
    await enterEmailedCode(page, { dataDir: server.dataDir, email })

    await shown(page.getByText(SETUP_REQUIRED_MESSAGE))
    const qr = page.getByRole('img', { name: /QR code of your two-factor key/ })
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml,/)
    expect(await qr.evaluate((image: HTMLImageElement) => image.naturalWidth)).toBeGreaterThan(0)
    const key = await shownKey(page)
    const codeField = page.getByLabel('Code', { exact: true })
    expect(await codeField.evaluate((input) => input === document.activeElement)).toBe(true)
    expect(await codeField.getAttribute('inputmode')).toBe('numeric')
    expect(await codeField.getAttribute('autocomplete')).toBe('one-time-code')

    expect(await axeViolations(page)).toEqual([])

    await codeField.fill('000000')
    await page.getByRole('button', { name: 'Verify code' }).click()
    expect(await shown(page.getByRole('alert'))).toMatch(/not right or was already used/)
    await codeField.fill(codeFor(key))
    await page.getByRole('button', { name: 'Verify code' }).click()

    const recoveryCodes = await shownRecoveryCodes(page)
    expect(recoveryCodes).toHaveLength(10)
    expect(await axeViolations(page)).toEqual([])
    await page.getByRole('button', { name: 'I have saved these codes' }).click()
    await shown(page.getByRole('heading', { name: 'Brigit Admin Dashboard' }))

    await signOut(page)
    await enterPassword(page, email)
    await shown(page.getByText('Enter the 6-digit code from your authenticator app.'))
    await page.getByLabel('Code', { exact: true }).fill(codeFor(key, 1))
    await page.getByRole('button', { name: 'Verify code' }).click()
    await shown(page.getByRole('heading', { name: 'Brigit Admin Dashboard' }))

    await signOut(page)
    await enterPassword(page, email)
    await page.getByRole('button', { name: 'Use a recovery code instead' }).click()
    const recoveryField = page.getByLabel('Recovery code')
    expect(await recoveryField.evaluate((input) => input === document.activeElement)).toBe(true)
    await recoveryField.fill(recoveryCodes[0]!)
    await page.getByRole('button', { name: 'Verify code' }).click()
    await shown(page.getByRole('heading', { name: 'Brigit Admin Dashboard' }))
    expect(pageErrors).toEqual([])
  })
})

describe('two-factor sign-in turned on from /staff/two-factor', () => {
  let browser: Browser
  const email = 'own.page.person@e2e.test'

  beforeAll(async () => {
    // an account of its own: the e2e admin keeps signing in with its password alone for the other specs
    await addStaffAccount({
      email,
      name: 'Olive Ownpage',
      role: 'staff',
      apps: [{ app: 'brigit', canExport: false }],
      password: PASSWORD,
    })
    browser = await connectBrowser()
  })
  afterAll(async () => {
    await browser?.close()
  })

  it('turns TOTP on with the QR code and a code, shows the recovery codes once, and sign-in then asks for a code', async () => {
    const { page, pageErrors } = await openPage(browser, '203.0.113.42')
    await page.goto(`${baseUrl()}/staff/two-factor`)
    await enterPassword(page, email)
    await shown(page.getByText('Two-factor sign-in is off.'))

    // a session alone sets nothing up: a wrong password is refused, and nothing is shown to scan
    await startSetupOnOwnPage(page, 'not my password')
    expect(await shown(page.getByRole('alert'))).toBe(
      'the password is not right: type the password you sign in with',
    )
    expect(await page.locator('code.totp-key').count()).toBe(0)
    await startSetupOnOwnPage(page, PASSWORD)
    const key = await shownKey(page)
    const codeField = page.getByLabel('Code', { exact: true })
    expect(await codeField.evaluate((input) => input === document.activeElement)).toBe(true)
    await codeField.fill(codeFor(key))
    await page.getByRole('button', { name: 'Turn on', exact: true }).click()
    expect(await shownRecoveryCodes(page)).toHaveLength(10)
    await page.getByRole('button', { name: 'I have saved these codes' }).click()
    await shown(page.getByText('Two-factor sign-in is on.'))
    expect(await shown(page.getByText(/You have 10 unused recovery codes/))).toBeTruthy()
    expect(await axeViolations(page)).toEqual([])

    await signOut(page)
    await enterPassword(page, email)
    await page.getByLabel('Code', { exact: true }).fill(codeFor(key, 1))
    await page.getByRole('button', { name: 'Verify code' }).click()
    await shown(page.getByText('Two-factor sign-in is on.'))
    expect(pageErrors).toEqual([])
  })
})
