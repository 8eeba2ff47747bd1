import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest'
import { mailsTo, plainTextOf } from '../../server/support/agreement-link.ts'
import { axeViolations } from '../accessibility/axe.ts'
import { baseUrl, connectBrowser, queryDb, shown, staffSessionCookies } from '../browser.ts'
import { fileClaim } from '../seed.ts'
import { drawStrokes } from '../step2/fill-claim.ts'

// a phone and an e-mail no other spec uses
const CLAIMANT = { email: 'dario.cure.sign@example.com', phoneDigits: '6025550381', firstName: 'Dario' }

/** The cure link of the newest notice to the claimant, once the server has sent it (up to 10 s). */
async function cureLink(): Promise<string> {
  for (let tries = 0; tries < 100; tries += 1) {
    for (const { eml } of mailsTo(inject('dataDir'), CLAIMANT.email).reverse()) {
      const link = /(http\S+\/cure#token=[\w-]{43})/.exec(plainTextOf(eml))?.[1]
      if (link) return link
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('no deficiency notice in the outbox')
}

describe('a cure that asks for a new signature, signed on a phone', () => {
  let browser: Browser
  let claimId = 0

  beforeAll(async () => {
    claimId = await fileClaim('brigit', CLAIMANT)
    browser = await connectBrowser()
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
  })

  it('a reviewer marks the claim deficient for its signature', async () => {
    const staff = await browser.newContext({ viewport: { width: 1280, height: 900 } })
    await staff.addCookies(await staffSessionCookies())
    const page = await staff.newPage()
    await page.goto(`${baseUrl()}/brigit-admin?q=${claimId}&claim=${claimId}`)
    const review = page.getByRole('region', { name: 'Selected Submission Details' }).locator('.claim-review')
    await shown(review.getByText('Status: Received'))
    for (const [label, reason] of [['In review'], ['Deficient', 'Signature missing or unclear']] as const) {
      await review.getByRole('radio', { name: label }).check()
      if (reason) await review.getByLabel('Reason').selectOption({ label: reason })
      await review.getByRole('button', { name: `Move to ${label}` }).click()
      await shown(review.getByText(`Status: ${label}`))
    }
    await staff.close()
  })

  it('asks to sign, takes a drawing, then the name typed instead, and stores the typed signature', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true })
    const claimant: Page = await phone.newPage()
    const errors: string[] = []
    claimant.on('pageerror', (error) => errors.push(error.message))
    await claimant.goto(await cureLink())
    await shown(claimant.getByText('Sign again: your signature confirms the agreement you already signed.'))
    // only what the reason asks for: a signature, no screenshot or name
    expect(await claimant.getByLabel('First name').count()).toBe(0)
    expect(await claimant.locator('#cure-screenshot').count()).toBe(0)

    await claimant.getByRole('button', { name: 'Send my corrections' }).click()
    await shown(claimant.getByRole('alert').getByText('Please sign in the box.'))

    await drawStrokes(claimant, claimant.getByRole('img', { name: /^Signature pad/ }))
    await shown(claimant.getByText('✓ Signature captured'))
    // the drawing is dropped once the claimant chooses to type; the typed name's image is what is sent
    await claimant.getByRole('button', { name: 'Type your signature instead' }).click()
    await claimant.getByLabel('Your full name').fill('Dario Núñez')
    await shown(claimant.getByText('✓ Signature captured'))
    expect(await axeViolations(claimant)).toEqual([])
    await claimant.getByRole('button', { name: 'Send my corrections' }).click()
    await shown(
      claimant.getByText('Thank you. We received your corrections and will review your claim again.'),
    )

    const amendments = queryDb<{ signature: string | null; signature_method: string | null }>(
      'SELECT signature, signature_method FROM claim_amendments WHERE claim_id = ?',
      claimId,
    )
    expect(amendments).toHaveLength(1)
    expect(amendments[0]!.signature_method).toBe('typed')
    expect(amendments[0]!.signature).toMatch(/^data:image\/png;base64,/)
    expect(errors).toEqual([])
    await phone.close()
  })
})
