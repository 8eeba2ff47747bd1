import fs from 'node:fs'
import { claimRequest } from '../../src/api/claim-request.ts'
import type { FormSignals } from '../../src/form-signals.ts'
import { formatPhone } from '../../src/phone.ts'
import { pngDataUrl } from '../server/support/claim-fixtures.ts'
import { baseUrl, proofOfWorkHeaders } from './browser.ts'
import { SCREENSHOT_PNG, type ClaimantInput } from './step2/fill-claim.ts'

/**
 * A Step 2 claim straight through the public API, as the form sends it, with the answers fillClaim
 * gives (3 cash advances, 12 months, the fixture's bank statement): for specs about what staff or the
 * claimant see after a claim. The form itself is the step2 specs' subject. With `journeyToken`, it comes
 * through the Step 2 link of the intake that gave the token; with `screenshot` (a PNG) and `signals`,
 * it carries a picture and a browser of its own, as a claimant's phone would; with `clientAddress`, it
 * comes from that address (the server believes a loopback proxy's X-Forwarded-For), so the claim's
 * network is its own. Gives the claim's id.
 */
export async function fileClaim(
  app: string,
  claimant: ClaimantInput,
  {
    journeyToken,
    screenshot = fs.readFileSync(SCREENSHOT_PNG),
    signals,
    clientAddress,
  }: { journeyToken?: string; screenshot?: Buffer; signals?: FormSignals; clientAddress?: string } = {},
): Promise<number> {
  // the form's own request builder: the same fields, in the same order, as the claim form sends
  const request = claimRequest({
    slug: app,
    data: {
      firstName: claimant.firstName ?? 'Ana',
      lastName: claimant.lastName ?? 'Lopez',
      email: claimant.email ?? 'Ana.Lopez@Example.com',
      phoneNumber: formatPhone(claimant.phoneDigits),
      cashAdvanceCount: 3,
      membershipMonths: 12,
      signature: pngDataUrl(),
    },
    agreementDate: new Date().toISOString().slice(0, 10),
    signing: { method: 'drawn' },
    locale: 'en',
    journeyToken,
    signals,
  })
  const body = new FormData()
  for (const [name, value] of request.fields) body.append(name, value)
  body.set('screenshot', new Blob([new Uint8Array(screenshot)], { type: 'image/png' }), 'bank-statement.png')
  const response = await fetch(`${baseUrl()}${request.path}`, {
    method: 'POST',
    headers: {
      Origin: baseUrl(),
      ...(await proofOfWorkHeaders()),
      ...(clientAddress ? { 'X-Forwarded-For': clientAddress } : {}),
    },
    body,
  })
  if (response.status !== 201)
    throw new Error(`the claim answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { id: number }).id
}
