import type { FieldErrors } from '../app-error.ts'
import type { PayoutMethod } from '../payout-details.ts'

/**
 * The claimant's side of payouts, reached from the page their e-mailed link opened: every request is a
 * POST whose JSON body carries `key`, the download key that opening the link gave (never a URL), and
 * the page's `?lang=`.
 */
export const CLAIMANT_PAYOUTS_PATH = '/api/payouts/own'
export const PAYOUT_CONSENT_PATH = '/api/payouts/consent'
export const PAYOUT_CHOICE_PATH = '/api/payouts/choice'
export const PAYOUT_W9_PATH = '/api/payouts/w9'

/** How the claimant chose to be paid, as the page shows it back: every number masked. */
export type ShownPayoutChoice =
  | { method: 'paypal' | 'venmo'; receiverType: 'email' | 'phone'; receiver: string }
  | { method: 'ach'; routingNumber: string; account: string; accountType: 'checking' | 'savings' }
  | { method: 'check' }

/** A claim's award and what the claimant receives of it, in integer cents. */
export interface PayoutAmounts {
  grossCents: number
  /** The fee percent as the signed agreement states it: '40', '33.33'. */
  feePercent: string
  feeCents: number
  /** The case costs taken from the award: the two parts below, less what the award could not cover. */
  costsCents: number
  /** Costs the firm advanced on this claim itself. */
  claimCostsCents: number
  /** The claim's share of costs spread over the claims paid together; 0 until a payout batch takes it. */
  sharedCostsCents: number
  /** Costs above what the award left after the fee: the firm bears them, the claimant does not owe them. */
  costsWaivedCents: number
  isBackupWithholding: boolean
  withholdingCents: number
  netCents: number
  /** True until a payout batch takes the claim: costs may still be charged and withholding may change. */
  isEstimate: boolean
}

/** One of the claimant's claims with an award. */
export interface ClaimantPayout {
  claimId: number
  appName: string
  /** Undefined when the signed agreement states no fee the server can read: the firm writes instead. */
  amounts?: PayoutAmounts
  /** The settlement the award comes from, whose allocation the claimant consents to (Rule 1.8(g)). */
  consent?: {
    settlementName: string
    /** The disclosure to read and sign, in the page's language (HTML made on the server). */
    disclosureHtml: string
    /** When the claimant signed it; undefined while it is still to sign. */
    signedAt?: string
  }
  choice?: ShownPayoutChoice
  /** The confirmed mailing address a check goes to; undefined when none is confirmed (no check then). */
  checkAddress?: string
  w9?: { legalName: string; tinType: 'ssn' | 'ein'; tin: string; certifiedAt: string }
  /** False once the claim is in a payout batch: the choice and the W-9 it was paid with stand. */
  canChange: boolean
}

export interface ClaimantPayouts {
  payouts: ClaimantPayout[]
}

/** How the claimant signs a consent or a W-9: a drawn PNG (data URL) or their full name typed. */
export type PayoutSigning =
  { signatureMethod: 'drawn'; signature: string } | { signatureMethod: 'typed'; typedSignature: string }

export type PayoutConsentRequest = { key: string; claimId: number } & PayoutSigning

export interface PayoutChoiceRequest {
  key: string
  claimId: number
  method: PayoutMethod
  email?: string
  phone?: string
  routingNumber?: string
  accountNumber?: string
  accountType?: 'checking' | 'savings'
}

export type PayoutW9Request = {
  key: string
  claimId: number
  legalName: string
  tinType: 'ssn' | 'ein'
  tin: string
  addressLine1: string
  addressLine2?: string
  city: string
  state: string
  zip: string
  isCertified: boolean
} & PayoutSigning

/** Each POST answers with the claim as it now stands; a refused one with 422 and `fields`. */
export interface PayoutSaved {
  payout: ClaimantPayout
}

export type { FieldErrors }

/** The server's answers a claimant reads; the Spanish ones are in forms/es/ui/payouts.json. */
export const PAYOUT_NOT_FOUND_MESSAGE =
  'We found no award on this claim for you. Please open the page again from the link we e-mailed you.'
export const CHECK_ADDRESS_MESSAGE =
  'We have no confirmed mailing address for you, so we cannot mail a check. Please choose another way, or confirm your address from the e-mail we sent you.'
export const PAYOUT_LOCKED_MESSAGE =
  'Your payment is already being prepared, so this can no longer change. Please write to us if something is wrong.'
export const CONSENT_NOT_NEEDED_MESSAGE =
  'This award is not part of a settlement: there is nothing to consent to.'
export const CONSENT_ALREADY_SIGNED_MESSAGE = 'You have already signed this consent.'
export const SIGNATURE_NEEDED_MESSAGE = 'Please sign: type your full name, or draw your signature.'
