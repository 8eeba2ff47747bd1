import type { Page } from 'playwright-core'
import { inject } from 'vitest'
import { linkIn, linkMailsTo, waitForLinkMail } from '../../server/agreement-link.ts'
import { shown } from '../browser.ts'

/**
 * What a claimant does at /view-agreement: types e-mail and phone, asks, sees the one answer, and
 * gives the link the server then e-mailed to `to` (the address as stored). Fails if none comes.
 */
export async function requestAgreementLink(
  page: Page,
  { email, phone, to = email.trim().toLowerCase() }: { email: string; phone: string; to?: string },
): Promise<string> {
  const dataDir = inject('dataDir')
  const seen = linkMailsTo(dataDir, to)
  await askForLink(page, { email, phone })
  const mail = await waitForLinkMail({ dataDir, address: to, seen })
  return linkIn(mail.eml)!
}

/** Fills the lookup form, presses its button and waits for the answer every lookup gets. */
export async function askForLink(
  page: Page,
  { email, phone }: { email: string; phone: string },
): Promise<void> {
  await page.getByLabel('Email Address').fill(email)
  await page.getByLabel('Phone Number').fill(phone)
  await page.getByRole('button', { name: 'Find My Agreement' }).click()
  await shown(page.getByRole('heading', { name: 'Check Your Email' }))
}

/** The link e-mails in the e2e server's outbox to `address`. */
export function linkMailCount(address: string): number {
  return linkMailsTo(inject('dataDir'), address).length
}
