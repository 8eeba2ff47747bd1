import type { Locale } from './translate.ts'

/** Who may make a move: a reviewer in the dashboard, the claimant curing their claim, or the server itself. */
export type MoveActor = 'staff' | 'claimant' | 'system'

export interface ReviewStatus {
  label: string
  /** Moving a claim here decides it: only an admin or an account with the app's "decide" right may. */
  decision?: boolean
  /** No move leads out of it: a move here ends the claim, so a reviewer needs the app's decide right. */
  final?: boolean
  /** A move here must name one of the reasons. */
  needsReason?: boolean
  /** What the claimant's status page says of a claim in this status ("received" when left out). */
  claimant?: ClaimantState
}

/** A claim's state as its claimant sees it: never the review's own status, reason or note. */
export const CLAIMANT_STATES = ['received', 'attention', 'approved', 'filed', 'awarded', 'closed'] as const
export type ClaimantState = (typeof CLAIMANT_STATES)[number]

/** What a cure page can ask a claimant for: a new screenshot, their name, a new signature, their age. */
export const CURE_FIXES = ['screenshot', 'name', 'signature', 'age'] as const
export type CureFix = (typeof CURE_FIXES)[number]

export interface ReviewReason {
  label: string
  /** What the claimant is told, in each language; left out for a reason whose text the reviewer writes. */
  text?: Partial<Record<Locale, string>>
  /** The reviewer writes the claimant-facing text (reasonText) with the move. */
  freeText?: boolean
  /** What the cure page asks the claimant for, to cure a claim made deficient for this reason. */
  fix?: CureFix[]
}

export interface ReviewMove {
  from: string
  to: string
  by?: MoveActor
  /**
   * A reviewer needs the app's decide right for this move. Left out, a move into a final status or out
   * of an approved status (approvedStatuses) needs it; a move into a final status may not set it false.
   */
  decide?: boolean
}

/**
 * What the code does with a status, each role naming one of the config's statuses, so that an app may
 * rename its statuses and the code follows:
 * - readyToFile: an approved claim; notice and filing batches take claims in it.
 * - filed: where a built filing batch moves its claims (the server's move from readyToFile).
 * - cure: where a cure request from the filing page moves a claim that lacks a field (a reviewer's move).
 * - awarded: where an award, entered, imported or a settlement's share, moves a filed claim (the
 *   server's move from filed); payouts pay claims in it.
 * The funnel counts a claim in readyToFile, filed or awarded as approved.
 */
export const REVIEW_ROLES = ['readyToFile', 'filed', 'cure', 'awarded'] as const
export type ReviewRole = (typeof REVIEW_ROLES)[number]

/** forms/base/review.json: the statuses of a claim's review, the moves between them, and their reasons. */
export interface ReviewConfig {
  /** Days a claimant has to cure a deficient claim. */
  curePeriodDays: number
  /** Every new claim's status. */
  initial: string
  statuses: Record<string, ReviewStatus>
  moves: ReviewMove[]
  reasons: Record<string, ReviewReason>
  /**
   * The status each role is, e.g.
   * `{ readyToFile: 'approved', filed: 'filed', cure: 'deficient', awarded: 'awarded' }`.
   */
  roles: Record<ReviewRole, string>
  /**
   * The move a reviewer's "Duplicate" decision on a flagged claim makes; without it the dashboard offers
   * only "Not a duplicate" (a duplicate is then handled with an ordinary move).
   */
  duplicate?: { status: string; reason: string }
}

/**
 * Each app's review config, by the app's slug: forms/base/review.json with the app's own "review"
 * laid over it (the base for an app that sets none).
 */
export type Reviews = (app: string) => ReviewConfig

/** The longest note or free-text reason a move takes. */
export const MAX_REVIEW_NOTE_LENGTH = 2000

/** The statuses `actor` may move a claim to from `from`, in the config's order. */
export function allowedMoves(config: ReviewConfig, from: string, actor: MoveActor = 'staff'): string[] {
  return config.moves
    .filter((move) => move.from === from && (move.by ?? 'staff') === actor)
    .map((move) => move.to)
}

/**
 * Whether a reviewer needs the app's decide right to move a claim from `from` to `to`. Fails closed: a
 * move the config does not list as a reviewer's, or into a status that decides or ends a claim, needs it.
 */
export function moveNeedsDecide(config: ReviewConfig, from: string, to: string): boolean {
  const move = config.moves.find(
    (each) => each.from === from && each.to === to && (each.by ?? 'staff') === 'staff',
  )
  const target = config.statuses[to]
  if (!move || !target || target.decision === true || target.final === true) return true
  return move.decide ?? approvedStatuses(config).includes(from)
}

/**
 * The statuses whose claims are approved: ready to file, filed, or awarded. Moving a claim out of one
 * undoes a decision, and the funnel counts a claim in one as approved.
 *
 * @example approvedStatuses(review) // ['approved', 'filed', 'awarded'] with forms/base/review.json
 */
export function approvedStatuses(config: ReviewConfig): string[] {
  return [config.roles.readyToFile, config.roles.filed, config.roles.awarded]
}

/**
 * The claimant's move out of a curable status (deficient → cured), and the server's when the cure
 * period ends (deficient → not_cured); undefined for a status that is not curable.
 */
export function cureMoves(
  config: ReviewConfig,
  status: string,
): { cured: string; notCured?: string } | undefined {
  const [cured] = allowedMoves(config, status, 'claimant')
  if (cured === undefined) return undefined
  return { cured, notCured: allowedMoves(config, status, 'system')[0] }
}

/** What the cure page asks for, for these reasons, in CURE_FIXES' order. */
export function fixesFor(config: ReviewConfig, reasons: readonly string[]): CureFix[] {
  const wanted = new Set(reasons.flatMap((reason) => config.reasons[reason]?.fix ?? []))
  return CURE_FIXES.filter((fix) => wanted.has(fix))
}
