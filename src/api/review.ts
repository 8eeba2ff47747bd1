/** What the review endpoints answer (server/review/review.routes.ts), read by the dashboard. */

/** One move in a claim's history. */
export interface ClaimMoveView {
  at: string
  from: string
  to: string
  reason: string | null
  reasonText: string | null
  note: string | null
  /** The account's e-mail, or 'claimant' (a cure) or 'server' (a cure period's end). */
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
  /** `sendsNotice`: the move e-mails the claimant the deficiency notice, with its reason's text. */
  moves: { to: string; label: string; needsReason: boolean; sendsNotice: boolean }[]
  history: ClaimMoveView[]
  /** Every status's label, by name, for the history. */
  statusLabels: Record<string, string>
  /**
   * The reasons a move may give; a free-text one needs the reviewer's text for the claimant. `text`: what
   * the deficiency notice tells the claimant for it, in the claim's language.
   */
  reasons: { name: string; label: string; freeText: boolean; text?: string }[]
  amendments: AmendmentView[]
  cure: CureStatusView | null
  /**
   * The move a "Duplicate" decision on this flagged claim makes, for an account that may decide when
   * the config names one; `allowed`: the claim's status allows it now.
   */
  duplicateMove: { to: string; label: string; allowed: boolean } | null
  /** Whether this account may decide the claim's flags (the app's decide right). */
  mayDecide: boolean
  /** The claims this one was decided not to be a duplicate of. */
  notDuplicateOf: { other: number; at: string; actor: string }[]
  /**
   * The main-form intake the claim names ("IN-000042"), null when there is none; admins open it by its
   * id. Not confirmed: nothing yet shows the claimant sent it, so its address is not printed on the
   * claim's notice or filing.
   */
  intake: { id: number; reference: string; confirmed: boolean } | null
  /** When the owner of the claim's e-mail answered the copy's link with "This wasn't me"; null if never. */
  disownedAt: string | null
  /** Its notice of dispute and filing, once it is in a batch; null before. */
  filing: ClaimFiling | null
}

/** Where a claim stands with its notice of dispute and its filing (server/filing/filing-batches.ts). */
export interface ClaimFiling {
  noticeBatchId: number | null
  /** YYYY-MM-DD, once the notice batch is marked sent; and the first day a demand may be filed. */
  noticeSentOn: string | null
  mayFileFrom: string | null
  /** The claimant's own certified mail number, else the notice batch's one number; null without either. */
  noticeTracking: string | null
  filingBatchId: number | null
  /** The claimant's row ID in the filing batch. */
  rowId: string | null
  /** The provider's case number, once imported. */
  caseNumber: string | null
}

/** What a claimant sent to cure the claim (server/review/cure-claim.ts), newest last. */
export interface AmendmentView {
  id: number
  at: string
  /** The reasons of the notice it answered. */
  reasons: string[]
  /** Corrected answers or statements ({ firstName, lastName }, { over18: true }); null when none. */
  fields: Record<string, string | boolean> | null
  /** GET /api/staff/claims/:id/amendments/:amendmentId/screenshot, when it holds a new screenshot. */
  hasScreenshot: boolean
  /** The new signature as a PNG data URL, when it holds one. */
  signature: string | null
}

/** The claim's cure period, while one is open or the last one. */
export interface CureStatusView {
  startedAt: string
  expiresAt: string
  /** Notice and reminders e-mailed so far. */
  noticesSent: number
  /** When the claimant first opened a link from them; null until then. */
  openedAt: string | null
  endedAt: string | null
  /**
   * How the period ended: the claimant sent corrections (`cured`), it ran out (`expired`), or a reviewer
   * moved the claim on (`moved`); null while it runs.
   */
  outcome: 'cured' | 'expired' | 'moved' | null
}
