import { claimFiling } from '../filing/filing-batches.ts'
import type { AppFiling } from '../filing/load-filing-config.ts'
import { parseLocale } from '../../src/translate.ts'
import { intakeReference } from '../../src/journey-config.ts'
import { isIntakeAddressConfirmed } from '../confirmations/intake-ties.ts'
import express, { Router } from 'express'
import type { Kysely } from 'kysely'
import type { ClaimReview } from '../../src/api/review.ts'
import { canDecideApp } from '../../src/api/staff.ts'
import { allowedMoves, cureMoves, moveNeedsDecide, type Reviews } from '../../src/review-config.ts'
import type { ClaimCures } from './claim-cures.ts'
import type { Database } from '../db/database.ts'
import { actorOf, type RecordAudit } from '../audit/audit-log.ts'
import { AppError } from '../../src/app-error.ts'
import { sendScreenshot } from '../dashboard/send-screenshot.ts'
import type { ScreenshotStorage } from '../uploads/screenshot-storage.ts'
import { linkOrigin } from '../public-origin.ts'
import { assertCanSee, staffAccountOf } from '../staff/require-staff.ts'
import { claimNotFound, moveClaim, parseClaimMove } from '../lifecycle/move-claim.ts'
import { decideDuplicate, parseDuplicateDecision } from './duplicate-decision.ts'
import { claimIdParam, visibleClaim } from '../dashboard/claim-id.ts'

const NO_STORE = 'private, no-store'

/**
 * A claim's review for the dashboard: its status, history and the moves open to the signed-in
 * account, the moves themselves, and the decision on a claim flagged as a duplicate. Mounted after requireStaff and sameOriginOnly.
 */
export function reviewRoutes({
  db,
  reviews,
  evidenceKey,
  claimCures,
  storage,
  audit,
  filings,
}: {
  db: Kysely<Database>
  /** Each app's filing settings: a claim's page says from when it may be filed. */
  filings: (app: string) => AppFiling
  storage: ScreenshotStorage
  audit: RecordAudit
  reviews: Reviews
  evidenceKey: Buffer
  /** Told of each move: one into a curable status sends its notice at once. */
  claimCures?: Pick<ClaimCures, 'wake'> | undefined
}): Router {
  const router = Router({ caseSensitive: true })
  const json = express.json({ limit: '16kb' })

  router.get('/api/staff/claims/:id/review', async (req, res) => {
    const claimId = claimIdParam(req.params.id)
    const account = staffAccountOf(res)
    const claim = await db
      .selectFrom('claims')
      .leftJoin('form_submissions as intake', 'intake.id', 'claims.intake_id')
      .select([
        'claims.app',
        'claims.locale',
        'claims.review_status',
        'claims.review_version',
        'claims.intake_id',
        'claims.intake_by_link',
        'intake.confirmed_at as intake_confirmed_at',
        'intake.disowned_at as intake_disowned_at',
        'claims.disowned_at',
        'claims.notice_batch_id',
        'claims.filing_batch_id',
        'claims.case_number',
      ])
      .where('claims.id', '=', claimId)
      .executeTakeFirst()
    if (!claim) throw claimNotFound(req.params.id)
    assertCanSee(res, claim.app)
    const review = reviews(claim.app)
    const history = await db
      .selectFrom('claim_moves')
      .select(['at', 'from_status', 'to_status', 'reason', 'reason_text', 'note', 'actor'])
      .where('claim_id', '=', claimId)
      .orderBy('id')
      .execute()
    const amendments = await db
      .selectFrom('claim_amendments')
      .select(['id', 'amended_at', 'reasons', 'fields', 'screenshot_key', 'signature'])
      .where('claim_id', '=', claimId)
      .orderBy('id')
      .execute()
    const cure = await db
      .selectFrom('claim_cures')
      .select(['id', 'started_at', 'expires_at', 'notices_sent', 'ended_at'])
      .where('claim_id', '=', claimId)
      .orderBy('id', 'desc')
      .executeTakeFirst()
    const opened = cure
      ? await db
          .selectFrom('claim_cure_links')
          .select((eb) => eb.fn.min('opened_at').as('opened_at'))
          .where('cure_id', '=', cure.id)
          .executeTakeFirst()
      : undefined
    const mayDecide = canDecideApp(account, claim.app)
    const cleared = await db
      .selectFrom('duplicate_decisions')
      .select(['other_claim_id', 'decided_at', 'actor'])
      .where('claim_id', '=', claimId)
      .orderBy('decided_at')
      .execute()
    const duplicateTo = review.duplicate?.status
    res.set('Cache-Control', NO_STORE).json({
      claimId,
      app: claim.app,
      status: claim.review_status,
      version: Number(claim.review_version),
      moves: allowedMoves(review, claim.review_status)
        .filter((to) => mayDecide || !moveNeedsDecide(review, claim.review_status, to))
        .map((to) => ({
          to,
          label: review.statuses[to]!.label,
          needsReason: review.statuses[to]!.needsReason === true,
          // a move into a curable status e-mails the claimant its reasons' texts at once
          sendsNotice: cureMoves(review, to) !== undefined,
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
      reasons: Object.entries(review.reasons).map(([name, { label, freeText, text }]) => ({
        name,
        label,
        freeText: freeText === true,
        // what the deficiency notice tells the claimant, in the claim's language
        ...(text ? { text: text[parseLocale(claim.locale) ?? 'en'] ?? text.en } : {}),
      })),
      amendments: amendments.map((row) => ({
        id: Number(row.id),
        at: row.amended_at,
        reasons: JSON.parse(row.reasons) as string[],
        fields: row.fields === null ? null : (JSON.parse(row.fields) as Record<string, string | boolean>),
        hasScreenshot: row.screenshot_key !== null,
        signature: row.signature,
      })),
      cure: cure
        ? {
            startedAt: isoMs(cure.started_at),
            expiresAt: isoMs(cure.expires_at),
            noticesSent: Number(cure.notices_sent),
            openedAt: opened?.opened_at == null ? null : isoMs(opened.opened_at),
            endedAt: cure.ended_at === null ? null : isoMs(cure.ended_at),
            outcome: cureOutcome(cure.ended_at, history),
          }
        : null,
      intake:
        claim.intake_id === null
          ? null
          : {
              id: Number(claim.intake_id),
              reference: intakeReference(Number(claim.intake_id)),
              confirmed: isIntakeAddressConfirmed(claim),
            },
      disownedAt: claim.disowned_at === null ? null : isoMs(claim.disowned_at),
      filing: await claimFiling(db, { ...claim, id: claimId }, filings(claim.app).settings.waitingPeriodDays),
      duplicateMove:
        duplicateTo !== undefined && mayDecide
          ? {
              to: duplicateTo,
              label: review.statuses[duplicateTo]!.label,
              allowed: allowedMoves(review, claim.review_status).includes(duplicateTo),
            }
          : null,
      mayDecide,
      notDuplicateOf: cleared.map((row) => ({
        other: Number(row.other_claim_id),
        at: isoMs(row.decided_at),
        actor: row.actor,
      })),
    } satisfies ClaimReview)
  })

  router.post('/api/staff/claims/:id/moves', json, async (req, res) => {
    const { id: claimId, app } = await visibleClaim(db, res, req.params.id)
    const review = reviews(app)
    const move = parseClaimMove(req.body, review)
    const account = staffAccountOf(res)
    const moved = await moveClaim({
      db,
      evidenceKey,
      review,
      claimId,
      move,
      mover: {
        ...actorOf(req, res),
        linkOrigin: linkOrigin(req),
        accountId: account.id,
        actor: account.email,
        mayDecide: (app) => canDecideApp(account, app),
      },
    })
    res.status(200).json(moved)
    if (cureMoves(review, moved.status)) claimCures?.wake()
  })

  router.post('/api/staff/claims/:id/duplicate-decision', json, async (req, res) => {
    const claim = await visibleClaim(db, res, req.params.id)
    const review = reviews(claim.app)
    const decision = parseDuplicateDecision(req.body)
    const account = staffAccountOf(res)
    const decided = await decideDuplicate({
      db,
      evidenceKey,
      review,
      claim,
      decision,
      reviewer: {
        ...actorOf(req, res),
        linkOrigin: linkOrigin(req),
        accountId: account.id,
        actor: account.email,
        mayDecide: (app) => canDecideApp(account, app),
      },
    })
    res.status(200).json(decided)
    if (cureMoves(review, decided.status)) claimCures?.wake()
  })

  router.get('/api/staff/claims/:id/amendments/:amendmentId/screenshot', async (req, res) => {
    const { id: claimId } = await visibleClaim(db, res, req.params.id)
    const amendmentId = claimIdParam(req.params.amendmentId)
    const amendment = await db
      .selectFrom('claim_amendments')
      .select(['app', 'screenshot_key', 'screenshot_type'])
      .where('id', '=', amendmentId)
      .where('claim_id', '=', claimId)
      .executeTakeFirst()
    if (!amendment?.screenshot_key) {
      throw new AppError('NOT_FOUND', {
        status: 404,
        message: `no screenshot in amendment "${req.params.amendmentId}" of claim "${req.params.id}"`,
      })
    }
    assertCanSee(res, amendment.app)
    const file = await storage.stream(amendment.screenshot_key)
    await audit({
      ...actorOf(req, res),
      app: amendment.app,
      action: 'screenshot_view',
      detail: `claim ${claimId}, amendment ${amendmentId}`,
    }).catch((error: unknown) => {
      file.body.destroy() // nothing is sent unless the view is on record
      throw error
    })
    await sendScreenshot(res, {
      file,
      type: amendment.screenshot_type ?? 'application/octet-stream',
      filename: `claim-${claimId}-amendment-${amendmentId}.${amendment.screenshot_key.split('.').pop()}`,
    })
  })

  return router
}

function isoMs(ms: number | string | bigint): string {
  return new Date(Number(ms)).toISOString()
}

/** The move that ended a cure period names how: the claimant's cure, the server's end of it, or a reviewer's. */
function cureOutcome(
  endedAt: number | null,
  history: { at: number; actor: string | null }[],
): 'cured' | 'expired' | 'moved' | null {
  if (endedAt === null) return null
  const ending = history.findLast((move) => Number(move.at) === Number(endedAt))
  return ending?.actor === 'claimant' ? 'cured' : ending?.actor === 'server' ? 'expired' : 'moved'
}
