/** What the review endpoints answer (server/review/review.routes.ts), read by the dashboard. */

/** One move in a claim's history. */
export interface ClaimMoveView {
  at: string
  from: string
  to: string
  reason: string | null
  reasonText: string | null
  note: string | null
  /** The account's e-mail; null for a move the claimant or the server made. */
  actor: string | null
}

/** GET /api/staff/claims/:id/review */
export interface ClaimReview {
  claimId: number
  app: string
  status: string
  /** Sent back with a move: a move made meanwhile wins. */
  version: number
  /** The statuses this account may move the claim to now. */
  moves: { to: string; label: string; needsReason: boolean }[]
  history: ClaimMoveView[]
  /** Every status's label, by name, for the history. */
  statusLabels: Record<string, string>
  /** The reasons a move may give; a free-text one needs the reviewer's text for the claimant. */
  reasons: { name: string; label: string; freeText: boolean }[]
}
