import {
  CLAIMANT_PAYOUTS_PATH,
  PAYOUT_CHOICE_PATH,
  PAYOUT_CONSENT_PATH,
  PAYOUT_W9_PATH,
  type ClaimantPayouts,
  type PayoutChoiceRequest,
  type PayoutConsentRequest,
  type PayoutSaved,
  type PayoutW9Request,
} from '../../src/api/claimant-payouts.ts'
import { fetchJson } from '../http.ts'

export type { ClaimantPayout, ShownPayoutChoice } from '../../src/api/claimant-payouts.ts'

/** A POST of JSON: the key and the numbers travel in the body, never in a URL. */
function postJson<T>(path: string, body: unknown): Promise<T> {
  return fetchJson<T>(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify(body),
  })
}

/** The opened page's claims with an award, with the opened link's key. */
export function loadClaimantPayouts(key: string): Promise<ClaimantPayouts> {
  return postJson(CLAIMANT_PAYOUTS_PATH, { key })
}

export function signPayoutConsent(request: PayoutConsentRequest): Promise<PayoutSaved> {
  return postJson(PAYOUT_CONSENT_PATH, request)
}

export function savePayoutChoice(request: PayoutChoiceRequest): Promise<PayoutSaved> {
  return postJson(PAYOUT_CHOICE_PATH, request)
}

export function saveW9(request: PayoutW9Request): Promise<PayoutSaved> {
  return postJson(PAYOUT_W9_PATH, request)
}
