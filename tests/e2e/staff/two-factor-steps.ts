import { Secret, TOTP } from 'otpauth'
import type { Browser, Page } from 'playwright-core'
import { shown } from '../browser.ts'
import { setupCodeTo } from '../../server/support/agreement-link.ts'

/** The authenticator app's code for the key, `steps` 30-second steps from now. */
export function codeFor(key: string, steps = 0): string {
  return new TOTP({ secret: Secret.fromBase32(key) }).generate({ timestamp: Date.now() + steps * 30_000 })
}

/**
 * A phone-sized page whose requests come from an address of their own: the server believes loopback's
 * X-Forwarded-For, and the login limit (10 a quarter hour) counts per address, which the other specs'
 * sign-ins from 127.0.0.1 share.
 */
export async function openPage(
  browser: Browser,
  address: string,
  viewport = { width: 390, height: 844 },
): Promise<{ page: Page; pageErrors: string[] }> {
  // a context of its own, as axe-core needs
  const context = await browser.newContext({ viewport, extraHTTPHeaders: { 'X-Forwarded-For': address } })
  const page = await context.newPage()
  const pageErrors: string[] = []
  page.on('pageerror', (error) => pageErrors.push(error.message))
  return { page, pageErrors }
}

export async function enterPassword(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email').fill(email)
  await page.getByLabel('Password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Access Dashboard' }).click()
}

/** /staff/two-factor's set-up: the current password, which the server asks for, then the button. */
export async function startSetupOnOwnPage(page: Page, password: string): Promise<void> {
  await page.getByLabel('Current password', { exact: true }).fill(password)
  await page.getByRole('button', { name: 'Turn on two-factor sign-in' }).click()
}

/** Signs out from the staff page's header and waits for the gate. */
export async function signOut(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Sign out' }).click()
  await shown(page.getByLabel('Password', { exact: true }))
}

/** The key shown as text beside the QR code, as a person would type it into the app. */
export async function shownKey(page: Page): Promise<string> {
  return (await shown(page.locator('code.totp-key'))).replace(/\s/g, '')
}

/** The ten recovery codes on screen. */
export async function shownRecoveryCodes(page: Page): Promise<string[]> {
  const list = page.getByRole('list', { name: 'Recovery codes' })
  await shown(list)
  return (await list.getByRole('listitem').allInnerTexts()).map((code) => code.trim())
}

/**
 * The gate's first set-up step of an account that must use two-factor sign-in and has none yet: the
 * code the server e-mailed (to the outbox in `dataDir`), as the person would copy it from their mail.
 */
export async function enterEmailedCode(page: Page, { dataDir, email }: { dataDir: string; email: string }) {
  await shown(page.getByLabel('Code from the e-mail'))
  await page.getByLabel('Code from the e-mail').fill(setupCodeTo(dataDir, email))
  await page.getByRole('button', { name: 'Continue' }).click()
}

/**
 * The gate's set-up of an account that must use two-factor sign-in and has none yet: enters the
 * e-mailed code (when `mailbox` is given; a sign-in right after accepting an invitation has it
 * already), reads the key beside the QR code, enters its code, and continues past the recovery codes.
 * Gives the key.
 */
export async function setUpTwoFactorAtGate(
  page: Page,
  mailbox?: { dataDir: string; email: string },
): Promise<string> {
  if (mailbox) await enterEmailedCode(page, mailbox)
  await shown(page.locator('code.totp-key'))
  const key = await shownKey(page)
  await page.getByLabel('Code', { exact: true }).fill(codeFor(key))
  await page.getByRole('button', { name: 'Verify code' }).click()
  await shownRecoveryCodes(page)
  await page.getByRole('button', { name: 'I have saved these codes' }).click()
  return key
}
