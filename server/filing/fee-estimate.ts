import type { FeeEstimate } from '../../src/api/filing-batches.ts'
import type { FeeTable } from '../../src/filing-config.ts'

/**
 * What a provider's fee table says each side pays for a filing of `cases` claims: the once-per-filing
 * fees plus each case at its tier's rate (the profile's estimate, never a quote).
 * @example feeEstimate({ note: '', perBatch: { claimant: 0, respondent: 100 }, tiers: [{ fromCase: 1, toCase: null, claimantPerCase: 0, respondentPerCase: 10 }] }, 3) // respondent 130
 */
export function feeEstimate(fees: FeeTable, cases: number): FeeEstimate {
  let claimant = fees.perBatch.claimant
  let respondent = fees.perBatch.respondent
  for (const tier of fees.tiers) {
    const last = tier.toCase === null ? cases : Math.min(tier.toCase, cases)
    const inTier = Math.max(0, last - tier.fromCase + 1)
    claimant += inTier * tier.claimantPerCase
    respondent += inTier * tier.respondentPerCase
  }
  return { claimant: round(claimant), respondent: round(respondent), note: fees.note }
}

function round(dollars: number): number {
  return Math.round(dollars * 100) / 100
}
