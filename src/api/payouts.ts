/**
 * What the payout endpoints answer: awards on claims and the settlements shared among them. Money is
 * integer cents everywhere; the pages write it with formatCents (src/money.ts).
 * @example const list: AwardList = await fetchJson('/api/staff/apps/brigit/awards?page=1')
 */

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
  totals: { count: number; grossCents: number }
}

/** The most awards a page of the list holds. */
export const MAX_AWARD_PAGE_SIZE = 500

/**
 * PUT /api/staff/claims/:id/award takes `{ amount: "1,234.56" }` and answers this: the claim's award,
 * its review status after the award (the app's awarded status), and whether anything changed (the
 * same amount again changes nothing).
 */
export interface AwardSet {
  claimId: number
  grossCents: number
  status: string
  changed: boolean
}

/**
 * POST /api/staff/apps/:slug/awards/import (a text/csv body, headed "Case Number" or "Row ID" and
 * "Award"): how many claims were awarded and for how much in all.
 */
export interface AwardsImported {
  imported: number
  totalCents: number
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
