import fs from 'node:fs'
import { formatPhone } from '../../src/phone.ts'
import { pngDataUrl } from '../server/claim-fixtures.ts'
import { baseUrl, proofOfWorkHeaders } from './browser.ts'
import { SCREENSHOT_PNG, type ClaimantInput } from './step2/fill-claim.ts'

/**
 * A Step 2 claim straight through the public API, as the form sends it, with the answers fillClaim
 * gives (3 cash advances, 12 months, the fixture's bank statement): for specs about what staff or the
 * claimant see after a claim. The form itself is the step2 specs' subject. Gives the claim's id.
 */
export async function fileClaim(app: string, claimant: ClaimantInput): Promise<number> {
  const body = new FormData()
  body.set(
    'data',
    JSON.stringify({
      firstName: claimant.firstName ?? 'Ana',
      lastName: claimant.lastName ?? 'Lopez',
      email: claimant.email ?? 'Ana.Lopez@Example.com',
      phoneNumber: formatPhone(claimant.phoneDigits),
      cashAdvanceCount: 3,
      membershipMonths: 12,
      signature: pngDataUrl(),
    }),
  )
  body.set('agreementDate', new Date().toISOString().slice(0, 10))
  body.set(
    'screenshot',
    new Blob([new Uint8Array(fs.readFileSync(SCREENSHOT_PNG))], { type: 'image/png' }),
    'bank-statement.png',
  )
  const response = await fetch(`${baseUrl()}/api/forms/${app}/submissions`, {
    method: 'POST',
    headers: { Origin: baseUrl(), ...(await proofOfWorkHeaders()) },
    body,
  })
  if (response.status !== 201)
    throw new Error(`the claim answered ${response.status}: ${await response.text()}`)
  return ((await response.json()) as { id: number }).id
}
