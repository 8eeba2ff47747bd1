import path from 'node:path'
import type { Locator, Page } from 'playwright-core'

export const SCREENSHOT_PNG = path.resolve('tests/fixtures/bank-statement.png')

export interface ClaimantInput {
  firstName?: string
  lastName?: string
  email?: string
  phoneDigits: string
}

/** Types, picks and draws the way a person does; leaves the submit button alone. */
export async function fillClaim(page: Page, claimant: ClaimantInput): Promise<void> {
  await page.getByLabel('First Name').fill(claimant.firstName ?? 'Ana')
  await page.getByLabel('Last Name').fill(claimant.lastName ?? 'Lopez')
  await page.getByLabel('Email Address').fill(claimant.email ?? 'Ana.Lopez@Example.com')
  await page.getByLabel('Phone Number').pressSequentially(claimant.phoneDigits)
  await page.getByLabel('How many times did you take cash advances?').selectOption({ label: '3 times' })
  await page.getByLabel('How many months were you a member?').selectOption({ label: '12 months' })
  await page.getByLabel('Bank Statement Screenshot').setInputFiles(SCREENSHOT_PNG)
  await drawSignature(page)
}

/** The pad's name and its "captured" line, in English unless the page is in another language. */
export interface SignaturePadText {
  padName: string | RegExp
  captured: string
}

export async function drawSignature(
  page: Page,
  { padName, captured }: SignaturePadText = { padName: /signature pad/i, captured: 'Signature captured' },
): Promise<void> {
  await drawStrokes(page, page.getByRole('img', { name: padName }))
  await page.getByText(captured).waitFor({ timeout: 5_000 })
}

/** A zigzag drawn on the pad with the mouse, pressed down once, as a person signs. */
export async function drawStrokes(page: Page, pad: Locator): Promise<void> {
  await pad.scrollIntoViewIfNeeded()
  const box = await pad.boundingBox()
  if (!box) throw new Error('the signature pad is not on screen')
  await page.mouse.move(box.x + 20, box.y + box.height / 2)
  await page.mouse.down()
  for (let step = 1; step <= 12; step++) {
    await page.mouse.move(box.x + 20 + step * 20, box.y + box.height / 2 + (step % 2 ? -25 : 25), {
      steps: 4,
    })
  }
  await page.mouse.up()
}

export function submitButton(page: Page, appName: string) {
  return page.getByRole('button', { name: `Submit ${appName} Claim` })
}
