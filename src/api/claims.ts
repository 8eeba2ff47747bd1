/** What the claimant's endpoints answer when a claim or the main form is stored (201). */
export interface CreatedClaim {
  id: number
  createdAt: string
}

/** POST /api/intake: the main form's submission, stored. */
export type CreatedIntake = CreatedClaim
