import type { Kysely, Transaction } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import {
  allowedMoves,
  cureMoves,
  MAX_REVIEW_NOTE_LENGTH,
  moveNeedsDecide,
  type MoveActor,
  type ReviewConfig,
} from '../../src/review-config.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import { queueWebhookEvent } from '../webhooks/webhook-events.ts'
import { claimantTimeZone, cureDeadline } from './cure-deadline.ts'
import { MAX_SCORE } from '../../src/fraud-config.ts'
import { fraudCodesOf, fraudSummary } from '../fraud/fraud-summary.ts'

/** A reviewer's move of one claim, as the dashboard sends it. */
export interface ClaimMove {
  to: string
  reason?: string | undefined
  /** The claimant-facing text of a free-text reason ("other"). */
  reasonText?: string | undefined
  /** Internal, never shown to the claimant. */
  note?: string | undefined
  /** The claim's review version the reviewer saw: a move made meanwhile wins, and this one is refused. */
  version: number
}

/** Who moves the claim, and whether they may decide its app's claims. */
export interface Reviewer {
  clientAddress: string
  /** The site's origin as the reviewer reached it: a deficiency notice's links point there. */
  linkOrigin: string
  accountId: number
  actor: string
  mayDecide(app: string): boolean
}

/**
 * The server moving a claim on its own (a timer, a batch, a job): only a move the config gives the
 * server ("by": "system") is made, and no account is named.
 */
export interface ServerMover {
  by: 'system'
  /** What moves it, as the audit log names it: "cure period", "filing batch". */
  actor: string
  clientAddress: string
}

export interface MovedClaim {
  status: string
  version: number
}

/** Checks a move's shape against the review config before anything is read: each fault a 400. */
export function parseClaimMove(body: unknown, review: ReviewConfig): ClaimMove {
  const input = (body ?? {}) as Record<string, unknown>
  const statuses = Object.keys(review.statuses)
  const reasons = Object.keys(review.reasons)
  const { to, reason, reasonText, note, version } = input
  if (typeof to !== 'string' || !statuses.includes(to)) {
    throw badRequest(`unknown status "${String(to)}": use one of ${statuses.join(', ')}`)
  }
  if (reason !== undefined && (typeof reason !== 'string' || !reasons.includes(reason))) {
    throw badRequest(`unknown reason "${String(reason)}": use one of ${reasons.join(', ')}`)
  }
  if (review.statuses[to]!.needsReason && reason === undefined) {
    throw badRequest(`a move to ${to} needs a reason: one of ${reasons.join(', ')}`)
  }
  for (const [name, text] of [
    ['note', note],
    ['reasonText', reasonText],
  ] as const) {
    if (text === undefined) continue
    if (typeof text !== 'string') throw badRequest(`"${name}" must be text`)
    if (text.length > MAX_REVIEW_NOTE_LENGTH) {
      throw badRequest(`the ${name === 'note' ? 'note' : 'reason text'} is over 2,000 characters`)
    }
  }
  const freeText = typeof reason === 'string' && review.reasons[reason]!.freeText === true
  if (freeText && (typeof reasonText !== 'string' || reasonText.trim() === '')) {
    throw badRequest(`the reason "${reason}" needs a text for the claimant (reasonText)`)
  }
  if (!Number.isSafeInteger(version) || (version as number) < 0) {
    throw badRequest('"version" must be the claim\'s review version, a whole number')
  }
  return {
    to,
    reason: reason as string | undefined,
    reasonText: freeText ? (reasonText as string).trim() : undefined,
    note: typeof note === 'string' && note.trim() !== '' ? note.trim() : undefined,
    version: version as number,
  }
}

/**
 * Moves one claim's review, if the config gives the mover (a reviewer, or the server with
 * `{ by: 'system' }`) the move from its status and the claim is still at the version the mover saw;
 * the move, its audit entry and the audit's ledger entry are written in one transaction with the
 * claim's new status. The caller has checked that the reviewer may see the claim's app (a claim's app
 * never changes). Refuses with 404 (no such claim), 409 (moved meanwhile, or a move the config does not
 * allow) or 403 (a decision without the app's decide right).
 */
export async function moveClaim({
  db,
  evidenceKey,
  review,
  claimId,
  move,
  mover,
}: {
  db: Kysely<Database>
  evidenceKey: Buffer
  review: ReviewConfig
  claimId: number
  move: ClaimMove
  mover: Reviewer | ServerMover
}): Promise<MovedClaim> {
  const isServer = 'by' in mover
  // another server process may hold SQLite's write lock
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const claim = await trx
        .selectFrom('claims')
        .select(['app', 'review_status', 'review_version'])
        .where('id', '=', claimId)
        .executeTakeFirst()
      if (!claim) throw claimNotFound(String(claimId))
      const from = claim.review_status
      const version = Number(claim.review_version)
      if (version !== move.version) throw movedMeanwhile(from, version)
      await recordMove(trx, {
        evidenceKey,
        review,
        claim: { id: claimId, app: claim.app, status: from, version },
        to: move.to,
        reason: move.reason,
        reasonText: move.reasonText,
        note: move.note,
        by: isServer ? { clientAddress: mover.clientAddress, accountId: null, actor: mover.actor } : mover,
        mover: isServer ? 'system' : 'staff',
        mayDecide: !isServer && mover.mayDecide(claim.app),
      })
      return { status: move.to, version: version + 1 }
    }),
  )
}

const MOVERS: Record<MoveActor, string> = {
  staff: 'a reviewer',
  claimant: 'the claimant',
  system: 'the server',
}

/**
 * The one check of a move, whoever makes it (recordMove runs it before it writes anything, and a
 * feature runs it before its work starts): the review config must give `mover` the move from `from`
 * to `to` (409 otherwise), and a reviewer's move that decides, undoes or ends a claim needs the app's
 * decide right (403). Fails closed: `mayDecide` left out is a reviewer without the right.
 */
export function assertMoveAllowed(
  review: ReviewConfig,
  { from, to, mover, mayDecide = false }: { from: string; to: string; mover: MoveActor; mayDecide?: boolean },
): void {
  if (!allowedMoves(review, from, mover).includes(to)) {
    const owners = (['staff', 'claimant', 'system'] as const).filter((actor) =>
      allowedMoves(review, from, actor).includes(to),
    )
    throw new AppError('CONFLICT', {
      status: 409,
      message:
        owners.length === 0
          ? `the review config has no move from ${from} to ${to}`
          : `the review config's move from ${from} to ${to} is for ${owners.map((actor) => MOVERS[actor]).join(' or ')}, not ${MOVERS[mover]}`,
    })
  }
  // fails closed (see moveNeedsDecide): ending or undoing a decision, or a move the server may end as
  // not cured, is only for an account that may decide the app's claims
  if (mover === 'staff' && moveNeedsDecide(review, from, to) && !mayDecide) {
    throw new AppError('FORBIDDEN', {
      status: 403,
      message: `moving a claim to ${to} needs the app's decide right, which an admin grants`,
    })
  }
}

/**
 * Writes one move of a claim that was read at `claim.version`, inside the caller's transaction, once
 * assertMoveAllowed lets `mover` make it (nothing is written otherwise): the claim's status (only if
 * no move came first: 409 otherwise), its audit entry and ledger entry, the move itself, the cure
 * period a move into a curable status opens (or ends, moving out of one), and the
 * claim.status_changed webhook event.
 * Every move is made here, whoever makes it: a reviewer, the claimant curing, the server at a period's end;
 * moveClaim is this in a transaction of its own, and a caller that moves claims inside its own
 * transaction (a page of a batch's claims, a cure with its answers) calls it directly.
 */
export async function recordMove(
  trx: Transaction<Database>,
  {
    evidenceKey,
    review,
    claim,
    to,
    reason,
    reasonText,
    note,
    by,
    mover,
    mayDecide,
    at = Date.now(),
  }: {
    evidenceKey: Buffer
    review: ReviewConfig
    claim: { id: number; app: string; status: string; version: number }
    to: string
    reason?: string | undefined
    reasonText?: string | undefined
    note?: string | undefined
    /** The account for a reviewer; the claimant and the server act without one. */
    by: { clientAddress: string; accountId: number | null; actor: string; linkOrigin?: string }
    /** Whose move the config must list: a reviewer's, the claimant's or the server's. */
    mover: MoveActor
    /** A reviewer's decide right on the claim's app; left out, they have none. */
    mayDecide?: boolean | undefined
    at?: number
  },
): Promise<{ moveId: number }> {
  assertMoveAllowed(review, { from: claim.status, to, mover, mayDecide })
  const updated = await trx
    .updateTable('claims')
    .set({
      review_status: to,
      review_version: claim.version + 1,
      review_reason: reason ?? null,
      review_moved_at: at,
    })
    .where('id', '=', claim.id)
    .where('review_version', '=', claim.version)
    // a claim ready to file in a filing batch moves only with the batch, to filed
    .$if(claim.status === review.roles.readyToFile && to !== review.roles.filed, (query) =>
      query.where('filing_batch_id', 'is', null),
    )
    .returning('fraud_score')
    .executeTakeFirst()
  if (!updated) {
    // PostgreSQL: another transaction moved it between the read and the update
    const now = await trx
      .selectFrom('claims')
      .select(['review_status', 'review_version', 'filing_batch_id'])
      .where('id', '=', claim.id)
      .executeTakeFirstOrThrow()
    if (now.filing_batch_id !== null && Number(now.review_version) === claim.version) {
      throw new AppError('CONFLICT', {
        status: 409,
        message: `the claim is in filing batch ${now.filing_batch_id}: it moves with the batch`,
      })
    }
    throw movedMeanwhile(now.review_status, Number(now.review_version))
  }
  const auditId = await writeAuditEntry(trx, evidenceKey, {
    clientAddress: by.clientAddress,
    accountId: by.accountId ?? undefined,
    actor: by.actor,
    app: claim.app,
    action: 'claim_moved',
    detail:
      `claim ${claim.id}: ${claim.status} → ${to}${reason ? ` (${reason})` : ''}` +
      (mover === 'staff' ? await fraudSeal(trx, claim.id, updated.fraud_score) : ''),
  })
  const { id } = await trx
    .insertInto('claim_moves')
    .values({
      claim_id: claim.id,
      app: claim.app,
      at,
      from_status: claim.status,
      to_status: to,
      reason: reason ?? null,
      reason_text: reasonText ?? null,
      note: note ?? null,
      account_id: by.accountId,
      actor: by.actor,
      audit_id: auditId,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const moveId = Number(id)
  if (cureMoves(review, claim.status)) {
    await trx
      .updateTable('claim_cures')
      .set({ ended_at: at })
      .where('claim_id', '=', claim.id)
      .where('ended_at', 'is', null)
      .execute()
  }
  if (cureMoves(review, to)) {
    await trx
      .insertInto('claim_cures')
      .values({
        id: moveId,
        claim_id: claim.id,
        app: claim.app,
        started_at: at,
        expires_at: cureDeadline({
          startedAt: at,
          days: review.curePeriodDays,
          timeZone: await claimantTimeZone(trx, claim.id),
        }),
        ended_at: null,
        link_origin: by.linkOrigin ?? '',
      })
      .execute()
  }
  await queueWebhookEvent(
    trx,
    { type: 'claim.status_changed', claimId: claim.id, app: claim.app, from: claim.status, to },
    at,
  )
  return { moveId }
}

/**
 * A reviewer's move decides on the claim's fraud score too: one with deductions has its score and the
 * reasons' codes sealed with the move's audit entry ("; fraud score 400 (device_shared)").
 */
async function fraudSeal(trx: Transaction<Database>, claimId: number, score: number | null): Promise<string> {
  if (score === null || score >= MAX_SCORE) return ''
  return `; ${fraudSummary(score, await fraudCodesOf(trx, claimId))}`
}

export function movedMeanwhile(status: string, version: number): AppError {
  return new AppError('CONFLICT', {
    status: 409,
    message: `the claim was moved meanwhile: it is now ${status} (version ${version}); reload it and try again`,
  })
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}

/** The answer for a claim id that names no claim (or one the caller may not know of). */
export function claimNotFound(id: string): AppError {
  return new AppError('NOT_FOUND', { status: 404, message: `no claim "${id}"` })
}
