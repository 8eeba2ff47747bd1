/**
 * What the bulk-move endpoints take and answer (server/review/bulk-moves.routes.ts), read by the
 * dashboard's "Move these claims" panel.
 * @example const job: BulkMoveJob = await fetchJson(`/api/staff/bulk-moves/${id}`)
 */

/** The most claim ids one bulk move takes by id; more are moved by a filter. */
export const MAX_BULK_MOVE_IDS = 10_000

/** The dashboard's filters as its list's query parameters (q, flagged, status, reason, assignee, …). */
export type BulkMoveFilter = Record<string, string>

/**
 * POST /api/staff/apps/:slug/bulk-moves/preview takes `to` and one selection; POST …/bulk-moves takes
 * the move too. The selection is either the checked rows (`ids`) or what the filter shows (`filter`).
 */
export interface BulkMoveRequest {
  to: string
  reason?: string
  /** The claimant-facing text of a free-text reason ("other"). */
  reasonText?: string
  /** Internal, never shown to the claimant; at most 2,000 characters. */
  note?: string
  ids?: number[]
  filter?: BulkMoveFilter
}

/** What a bulk move would do now: the claims it would move, by status, and those it cannot move. */
export interface BulkMovePreview {
  /** How many would move. */
  count: number
  /** Those that would move, by their status now. */
  from: Record<string, number>
  /** Those whose status does not allow the move, by status. */
  skipped: Record<string, number>
  /**
   * Of those that would move, the ones a reviewer should look at first: flagged as a duplicate
   * screenshot, disowned by the owner of their e-mail ("This wasn't me"), or naming a main form not
   * confirmed. Each with its count and its first few claim ids, lowest first.
   */
  attention: Record<BulkAttention, { count: number; ids: number[] }>
}

export const BULK_ATTENTION = ['flagged', 'disowned', 'unconfirmed'] as const
export type BulkAttention = (typeof BULK_ATTENTION)[number]
/** How many claim ids the preview names for each kind of claim to look at. */
export const BULK_ATTENTION_NAMED = 10

/** POST /api/staff/apps/:slug/bulk-moves answers 202 with this. */
export interface BulkMoveStarted {
  id: number
  /** The claims selected, fixed now. */
  total: number
}

export type BulkMoveStatus = 'queued' | 'running' | 'done' | 'failed'

/** GET /api/staff/bulk-moves/:id */
export interface BulkMoveJob {
  id: number
  app: string
  to: string
  status: BulkMoveStatus
  total: number
  moved: number
  /** Claims whose status did not allow the move when their turn came, or that were moved meanwhile. */
  skipped: number
}

/** GET /api/staff/apps/:slug/bulk-moves/choices: the statuses a bulk move can go to, and the reasons. */
export interface BulkMoveChoices {
  targets: { to: string; label: string; needsReason: boolean }[]
  reasons: { name: string; label: string; freeText: boolean }[]
  /** Every status's label, by name, for the preview's sentence. */
  statusLabels: Record<string, string>
}
