import type { Page } from 'playwright-core'
import { inject } from 'vitest'
import { linkIn, linkMailsTo, waitForLinkMail } from '../../server/agreement-link.ts'
import { shown } from '../browser.ts'

/**
 * What a claimant does at /view-agreement, in either language: types e-mail and phone, asks, sees the
 * one answer, and gives the link the server then e-mailed to `to` (the address as stored).
 */
export async function requestAgreementLink(
  page: Page,
  { email, phone, to = email.trim().toLowerCase() }: { email: string; phone: string; to?: string },
): Promise<string> {
  return linkMailedAfter(to, () => askForLink(page, { email, phone }))
}

/** Fills the lookup form, presses its button and waits for the answer every lookup gets. */
export async function askForLink(
  page: Page,
  { email, phone }: { email: string; phone: string },
): Promise<void> {
  await page.locator('#lookup-email').fill(email)
  await page.locator('#lookup-phone').fill(phone)
  await pressFind(page)
}

/** Presses the lookup's button and waits for the answer. */
export async function pressFind(page: Page): Promise<void> {
  await page.locator('.lookup-form button[type="submit"]').click()
  await shown(page.locator('.notice-box[role="status"]'))
}

/** The link e-mailed to `to` once `ask` has run (a link sent before it does not count). */
export async function linkMailedAfter(to: string, ask: () => Promise<void>): Promise<string> {
  const dataDir = inject('dataDir')
  const seen = linkMailsTo(dataDir, to)
  await ask()
  return linkIn((await waitForLinkMail({ dataDir, address: to, seen })).eml)!
}

/** The link e-mails in the e2e server's outbox to `address`. */
export function linkMailCount(address: string): number {
  return linkMailsTo(inject('dataDir'), address).length
}
