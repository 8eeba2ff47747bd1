/** GET /api/staff/apps/:app/payouts/unclaimed.json: unclaimed funds by the claimant's state, for escheat. */
export interface UnclaimedFunds {
  app: string
  /** When the report was made (ISO 8601). */
  asOf: string
  /** A check not paid this many days after it was sent counts (payouts.json's uncashedCheckDays). */
  uncashedCheckDays: number
  /** payouts.json's dormancyYears: each item's "reportable from" day is its day plus these years. */
  dormancyYears: number
  /** By state, in code order; '' (no address on file) last. */
  states: UnclaimedState[]
  count: number
  totalCents: number
}

export interface UnclaimedState {
  /** The claimant's two-letter state, or '' when no address is on file. */
  state: string
  count: number
  totalCents: number
  /** Of them, those past the dormancy period today, and their sum. */
  dormantCount: number
  dormantCents: number
}
