import express, { Router } from 'express'
import type { Kysely } from 'kysely'
import type { ClaimReview } from '../../src/api/review.ts'
import { canDecideApp } from '../../src/api/staff.ts'
import { allowedMoves, type ReviewConfig } from '../../src/review-config.ts'
import type { Database } from '../db/database.ts'
import { actorOf } from '../staff/audit-log.ts'
import { assertCanSee, staffAccountOf } from '../staff/require-staff.ts'
import { moveClaim, parseClaimMove } from './move-claim.ts'
import { claimIdParam, claimNotFound } from '../staff/claim-id.ts'

const NO_STORE = 'private, no-store'

/**
 * A claim's review for the dashboard: its status, history and the moves open to the signed-in
 * account, and the moves themselves. Mounted after requireStaff and sameOriginOnly.
 */
export function reviewRoutes({
  db,
  review,
  evidenceKey,
}: {
  db: Kysely<Database>
  review: ReviewConfig
  evidenceKey: Buffer
}): Router {
  const router = Router({ caseSensitive: true })
  const json = express.json({ limit: '16kb' })

  router.get('/api/staff/claims/:id/review', async (req, res) => {
    const claimId = claimIdParam(req.params.id)
    const account = staffAccountOf(res)
    const claim = await db
      .selectFrom('claims')
      .select(['app', 'review_status', 'review_version'])
      .where('id', '=', claimId)
      .executeTakeFirst()
    if (!claim) throw claimNotFound(req.params.id)
    assertCanSee(res, claim.app)
    const history = await db
      .selectFrom('claim_moves')
      .select(['at', 'from_status', 'to_status', 'reason', 'reason_text', 'note', 'actor'])
      .where('claim_id', '=', claimId)
      .orderBy('id')
      .execute()
    const mayDecide = canDecideApp(account, claim.app)
    res.set('Cache-Control', NO_STORE).json({
      claimId,
      app: claim.app,
      status: claim.review_status,
      version: Number(claim.review_version),
      moves: allowedMoves(review, claim.review_status)
        .filter((to) => mayDecide || !review.statuses[to]!.decision)
        .map((to) => ({
          to,
          label: review.statuses[to]!.label,
          needsReason: review.statuses[to]!.needsReason === true,
        })),
      history: history.map((move) => ({
        at: new Date(Number(move.at)).toISOString(),
        from: move.from_status,
        to: move.to_status,
        reason: move.reason,
        reasonText: move.reason_text,
        note: move.note,
        actor: move.actor,
      })),
      statusLabels: Object.fromEntries(
        Object.entries(review.statuses).map(([name, { label }]) => [name, label]),
      ),
      reasons: Object.entries(review.reasons).map(([name, { label, freeText }]) => ({
        name,
        label,
        freeText: freeText === true,
      })),
    } satisfies ClaimReview)
  })

  router.post('/api/staff/claims/:id/moves', json, async (req, res) => {
    const claimId = claimIdParam(req.params.id)
    // the claim's app first: a claim the account may not see is refused as such, whatever the body
    const claim = await db.selectFrom('claims').select('app').where('id', '=', claimId).executeTakeFirst()
    if (!claim) throw claimNotFound(req.params.id)
    assertCanSee(res, claim.app)
    const move = parseClaimMove(req.body, review)
    const account = staffAccountOf(res)
    const moved = await moveClaim({
      db,
      evidenceKey,
      review,
      claimId,
      move,
      reviewer: {
        ...actorOf(req, res),
        accountId: account.id,
        actor: account.email,
        mayDecide: (app) => canDecideApp(account, app),
      },
    })
    res.status(200).json(moved)
  })

  return router
}
