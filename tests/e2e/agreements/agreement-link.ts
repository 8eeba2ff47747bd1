import type { Page } from 'playwright-core'
import { expect, inject } from 'vitest'
import { linkIn, linkMailsTo, waitForLinkMail } from '../../server/support/agreement-link.ts'
import { makeClaimData, makePng } from '../../server/support/claim-fixtures.ts'
import { baseUrl, proofOfWorkHeaders, shown } from '../browser.ts'

/** An Earnin claim filed straight through the API, for specs about finding it afterwards. */
export async function fileEarninClaim(person: {
  firstName: string
  lastName: string
  email: string
  phoneNumber: string
}): Promise<void> {
  const form = new FormData()
  form.append('data', JSON.stringify(makeClaimData(person)))
  form.append('agreementDate', new Date().toISOString().slice(0, 10))
  form.append(
    'screenshot',
    new Blob([new Uint8Array(makePng({ width: 30, height: 10 }))], { type: 'image/png' }),
    'a.png',
  )
  const response = await fetch(`${baseUrl()}/api/forms/earnin/submissions`, {
    method: 'POST',
    headers: await proofOfWorkHeaders(),
    body: form,
  })
  expect(response.status).toBe(201)
}

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
