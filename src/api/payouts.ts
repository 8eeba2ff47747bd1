/**
 * What the staff's payout endpoints answer: awards on claims and the settlements shared among them
 * (server/payouts/awards.routes.ts), and payout batches (server/payouts/payouts.routes.ts). Money is
 * integer cents everywhere, written with formatCents (src/money.ts); bank and taxpayer numbers by
 * their last four only.
 * @example const page: PayoutsPage = await fetchJson('/api/staff/apps/brigit/payouts')
 */
import type { PayoutMethod } from '../payout-details.ts'

/** How a claim's award was set: typed on its own, read from a provider's file, or a settlement's share. */
export type AwardSource = 'entered' | 'imported' | 'settlement'

/** How a settlement is shared: the same for every claim, or by each claim's cash advances. */
export type SettlementRule = 'equal' | 'cashAdvanceCount'

/** One claim's award as the awards list shows it. */
export interface AwardRow {
  claimId: number
  /** The claimant's first and last name as the claim gives them. */
  claimantName: string
  /** The provider's case number; null for a claim filed without one. */
  caseNumber: string | null
  grossCents: number
  /** Case costs the firm advanced on this claim alone, repaid from its award before the claimant's net. */
  costsCents: number
  source: AwardSource
  /** The settlement the award is a share of; null for an award entered or imported. */
  settlement: { id: number; name: string } | null
  /** When the award was set (or last corrected), ISO 8601, and by whom (an e-mail). */
  setAt: string
  setBy: string
}

/** GET /api/staff/apps/:slug/awards?page=&pageSize=: a page of the app's awards, newest claim first. */
export interface AwardList {
  awards: AwardRow[]
  page: number
  pageSize: number
  /** Every award of the app, not only this page's. */
  totals: { count: number; grossCents: number; costsCents: number }
}

/** The most awards a page of the list holds. */
export const MAX_AWARD_PAGE_SIZE = 500

/**
 * PUT /api/staff/claims/:id/award takes `{ amount: "1,234.56", costs?: "75.00" }` (the decide right),
 * and PUT /api/staff/claims/:id/award/costs takes `{ costs: "75.00" }` (the decide or the payments
 * right); both answer this: the claim's award and the costs advanced on it, its review status after
 * the award (the app's awarded status), and whether anything changed (the same amounts again change
 * nothing). Costs above the award, negative or not in whole cents are refused with 422.
 */
export interface AwardSet {
  claimId: number
  grossCents: number
  costsCents: number
  status: string
  changed: boolean
}

/** What the award form sends: the award's amount and, when there are any, the costs advanced. */
export interface AwardRequest {
  amount: string
  costs?: string
}

/**
 * POST /api/staff/apps/:slug/awards/import (a text/csv body, headed "Case Number" or "Row ID",
 * "Award", and optionally "Costs"): how many claims were awarded and for how much in all.
 */
export interface AwardsImported {
  imported: number
  totalCents: number
  /** The costs advanced the file entered on its claims, in all. */
  costsCents: number
  /** The file's SHA-256, as the audit log names it. */
  sha256: string
}

/** POST /api/staff/apps/:slug/settlements takes this. */
export interface SettlementRequest {
  name: string
  /** A dollar amount as typed: "250,000.00". */
  total: string
  rule: SettlementRule
  /** The filed claims that share it; left out: every filed claim of the app. */
  claimIds?: number[]
}

/** What POST /api/staff/apps/:slug/settlements answers (201): the settlement and each claim's share. */
export interface SettlementCreated {
  id: number
  name: string
  totalCents: number
  rule: SettlementRule
  /** In claim id order; the shares add up to totalCents exactly. */
  shares: { claimId: number; cents: number }[]
}

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
  /** How its items are paid, in PAYOUT_METHODS' order: which files for the bank it has. */
  methods: PayoutMethod[]
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

/**
 * GET /api/staff/payout-batches/:id/items?page=&pageSize=: a page of a batch's items in the order they
 * were made (pageSize 50 unless asked, at most 200), and how many it has in all.
 */
export interface PayoutItemPage {
  items: PayoutItemView[]
  page: number
  pageSize: number
  count: number
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
  /** The costs of the payments sent, apart: charged = advanced on claims + shared - waived. */
  costs: PayoutCostsApart
}

/** Where the costs charged to claimants come from, from the payments sent (each claim counted once). */
export interface PayoutCostsApart {
  /** Costs the firm advanced on the claims themselves (entered on their awards). */
  advancedOnClaimsCents: number
  /** The claims' shares of costs their batches spread over them. */
  sharedCents: number
  /** Costs above what an award left after the fee: not charged, the firm bears them. */
  waivedCents: number
}

/** A check sent and not cashed (paid) within the app's uncashedCheckDays. */
export interface UncashedCheck {
  itemId: number
  batchId: number
  claimId: number
  /** Whom the check is made out to (the W-9's legal name, else the claim's), masked: "R•••• M••••". */
  payee: string
  checkNumber: number
  netCents: number
  sentAt: string
  /** Whole days since it was sent. */
  daysOut: number
}

/** GET /api/staff/apps/:app/payouts/uncashed-checks: the oldest first. */
export interface UncashedChecks {
  /** payouts.json's uncashedCheckDays for the app: a check not cashed this many days after it was sent. */
  uncashedCheckDays: number
  checks: UncashedCheck[]
}
