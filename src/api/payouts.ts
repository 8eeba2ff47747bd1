/**
 * What the payouts endpoints answer (server/payouts/payouts.routes.ts): amounts in integer cents, bank
 * and taxpayer numbers by their last four only.
 * @example const page: PayoutsPage = await fetchJson('/api/staff/apps/brigit/payouts')
 */
import type { PayoutMethod } from '../payout-details.ts'

/** A batch's (or a selection's) count and sums. */
export interface PayoutTotals {
  count: number
  grossCents: number
  feeCents: number
  costsCents: number
  withholdingCents: number
  netCents: number
}

/** The claims a batch built now would take. */
export interface PayoutCandidates {
  count: number
  grossCents: number
  /** Claims without a W-9: backup withholding applies to them. */
  withoutTaxForm: number
  byMethod: Partial<Record<PayoutMethod, { count: number; grossCents: number }>>
}

/** A claim a build left out, and why. */
export interface PayoutLeftOut {
  claimId: number
  reason: string
}

export interface PayoutBatchView {
  id: number
  status: 'built' | 'approved' | 'sent' | 'closed'
  costsCents: number
  builtBy: string
  builtAt: string
  approvedBy: string | null
  approvedAt: string | null
  sentAt: string | null
  totals: PayoutTotals
  /** Items by their status: pending, sent, paid, failed, unclaimed, returned. */
  itemStatuses: Record<string, number>
}

/** GET /api/staff/apps/:app/payouts */
export interface PayoutsPage {
  /** False: PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET are not set, and PayPal and Venmo items wait. */
  isPayPalSetUp: boolean
  candidates: PayoutCandidates
  batches: PayoutBatchView[]
}

/** POST /api/staff/apps/:app/payouts */
export interface PayoutBatchBuilt {
  batchId: number
  totals: PayoutTotals
  leftOut: PayoutLeftOut[]
}

/** One claim's payment in a batch, as staff see it. */
export interface PayoutItemView {
  id: number
  claimId: number
  claimantName: string
  method: PayoutMethod
  grossCents: number
  feePercent: string
  feeCents: number
  costsCents: number
  withholdingCents: number
  netCents: number
  status: string
  /** PayPal or Venmo: the receiver, its name hidden ("a••••@example.com"). */
  receiver: string | null
  /** ACH: "••••6789". */
  account: string | null
  /** The W-9's taxpayer number: "••••6789"; null without a W-9 (backup withholding). */
  tin: string | null
  checkNumber: number | null
  failure: string | null
  replacesItemId: number | null
}

/** The trust account's figures for a batch or an app, from its entries and again from the awards and items. */
export interface PayoutFigures {
  receivedCents: number
  feeCents: number
  costsCents: number
  withholdingCents: number
  netPaidCents: number
  returnedCents: number
  heldCents: number
}

/** GET …/reconciliation: 0 cents of difference when every entry is where the awards and items say. */
export interface PayoutReconciliation {
  fromTrustEntries: PayoutFigures
  fromAwardsAndItems: PayoutFigures
  /** Each figure's trust value less its independent value. */
  differences: PayoutFigures
  /** The sum of the differences' sizes: 0 when the two agree. */
  differenceCents: number
}

/** GET /api/staff/apps/:app/payouts/uncashed-checks */
export interface UncashedCheck {
  itemId: number
  batchId: number
  claimId: number
  checkNumber: number
  netCents: number
  sentAt: string
  daysOut: number
}
