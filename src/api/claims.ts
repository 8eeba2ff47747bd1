import type { Step2Link } from '../journey-config.ts'

/** What the claimant's endpoints answer when a claim or the main form is stored (201). */
export interface CreatedClaim {
  id: number
  createdAt: string
}

/** POST /api/intake: the main form's submission, stored, with the claimant's next steps. */
export interface CreatedIntake extends CreatedClaim {
  /** What the claimant quotes to the firm ("IN-000042"). */
  reference: string
  /** Each chosen app with a Step 2 form, its link pre-filling the form (in the claimant's order). */
  steps: Step2Link[]
}
