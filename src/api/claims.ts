import type { Step2Link } from '../journey-config.ts'

/** What the claimant's endpoints answer when a claim or the main form is stored (201). */
export interface CreatedClaim {
  id: number
  createdAt: string
}

/** POST /api/forms/:slug/submissions: the Step 2 claim, stored, with the claimant's next app if any. */
export interface CreatedStep2Claim extends CreatedClaim {
  /**
   * The intake's chosen apps still without a claim, with their Step 2 links (in the claimant's order).
   * A link pre-fills its form only for a claim that came by that intake's own Step 2 link.
   */
  nextSteps: Step2Link[]
}

/** POST /api/intake: the main form's submission, stored, with the claimant's next steps. */
export interface CreatedIntake extends CreatedClaim {
  /** What the claimant quotes to the firm ("IN-000042"). */
  reference: string
  /** Each chosen app with a Step 2 form, its link pre-filling the form (in the claimant's order). */
  steps: Step2Link[]
}
