import express, { Router, type Response } from 'express'
import type { Kysely } from 'kysely'
import type {
  BulkMoveChoices,
  BulkMoveJob,
  BulkMovePreview,
  BulkMoveStarted,
} from '../../src/api/bulk-moves.ts'
import { canDecideApp, visibleApps } from '../../src/api/staff.ts'
import { AppError } from '../../src/app-error.ts'
import type { Reviews } from '../../src/review-config.ts'
import type { FraudConfigs } from '../../src/fraud-config.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { Database } from '../db/database.ts'
import { findFormOrThrow } from '../forms/find-form.ts'
import { linkOrigin } from '../public-origin.ts'
import { actorOf } from '../audit/audit-log.ts'
import { claimSearch } from '../dashboard/claim-search.ts'
import { assertCanSee, staffAccountOf } from '../staff/require-staff.ts'
import { bulkTargets, parseBulkMove, previewBulkMove, selectedIds } from './bulk-move-selection.ts'
import type { BulkMoves } from './bulk-moves.ts'
import { queueBulkMove } from './queue-bulk-move.ts'

const NO_STORE = 'private, no-store'

/**
 * Bulk moves from an app's dashboard: the choices, a preview, the job's start and its progress. Each
 * needs the app's decide right. Mounted after requireStaff and sameOriginOnly.
 */
export function bulkMoveRoutes({
  db,
  forms,
  reviews,
  fraud,
  bulkMoves,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  reviews: Reviews
  /** Each app's fraud thresholds, for a filter by fraud standing. */
  fraud: FraudConfigs
  /** Woken by each job queued; left out, a job waits for a server process that runs them. */
  bulkMoves?: Pick<BulkMoves, 'wake'> | undefined
}): Router {
  const router = Router({ caseSensitive: true })
  // 10,000 ids of up to 15 digits
  const json = express.json({ limit: '256kb' })
  const claims = claimSearch(db)

  router.get('/api/staff/apps/:slug/bulk-moves/choices', (req, res) => {
    const { slug } = findFormOrThrow(forms, req.params.slug)
    assertCanDecide(res, slug)
    const review = reviews(slug)
    res.set('Cache-Control', NO_STORE).json({
      targets: bulkTargets(review).map((to) => ({
        to,
        label: review.statuses[to]!.label,
        needsReason: review.statuses[to]!.needsReason === true,
      })),
      reasons: Object.entries(review.reasons).map(([name, { label, freeText }]) => ({
        name,
        label,
        freeText: freeText === true,
      })),
      statusLabels: Object.fromEntries(
        Object.entries(review.statuses).map(([name, { label }]) => [name, label]),
      ),
    } satisfies BulkMoveChoices)
  })

  router.post('/api/staff/apps/:slug/bulk-moves/preview', json, async (req, res) => {
    const { slug } = findFormOrThrow(forms, req.params.slug)
    assertCanDecide(res, slug)
    const review = reviews(slug)
    const move = parseBulkMove(req.body, review)
    const selection = selectionOf(res)
    const ids = await selectedIds({
      ...selection,
      db,
      review,
      fraud: fraud(slug),
      claims,
      app: slug,
      selection: move.selection,
    })
    const preview = await previewBulkMove(db, {
      review,
      app: slug,
      ids,
      to: move.to,
      visibleApps: selection.visibleApps,
    })
    res.set('Cache-Control', NO_STORE).json(preview satisfies BulkMovePreview)
  })

  router.post('/api/staff/apps/:slug/bulk-moves', json, async (req, res) => {
    const { slug } = findFormOrThrow(forms, req.params.slug)
    assertCanDecide(res, slug)
    const review = reviews(slug)
    const move = parseBulkMove(req.body, review)
    const account = staffAccountOf(res)
    const ids = await selectedIds({
      ...selectionOf(res),
      db,
      review,
      fraud: fraud(slug),
      claims,
      app: slug,
      selection: move.selection,
    })
    const { clientAddress } = actorOf(req, res)
    // the selection is fixed now: the claims' ids are stored with the job, in the job's transaction
    const started = await queueBulkMove(db, {
      app: slug,
      move,
      ids,
      by: { accountId: account.id, actor: account.email, clientAddress, linkOrigin: linkOrigin(req) },
    })
    res.status(202).json(started satisfies BulkMoveStarted)
    bulkMoves?.wake()
  })

  router.get('/api/staff/bulk-moves/:id', async (req, res) => {
    const id = /^\d{1,15}$/.test(req.params.id) ? Number(req.params.id) : undefined
    const job =
      id === undefined
        ? undefined
        : await db
            .selectFrom('bulk_moves')
            .select(['id', 'app', 'to_status', 'status', 'total', 'moved', 'skipped'])
            .where('id', '=', id)
            .executeTakeFirst()
    if (!job) {
      throw new AppError('NOT_FOUND', { status: 404, message: `no bulk move "${req.params.id}"` })
    }
    assertCanSee(res, job.app)
    res.set('Cache-Control', NO_STORE).json({
      id: Number(job.id),
      app: job.app,
      to: job.to_status,
      status: job.status,
      total: Number(job.total),
      moved: Number(job.moved),
      skipped: Number(job.skipped),
    } satisfies BulkMoveJob)
  })

  return router
}

/** 403 unless the account may see the app's claims and decide them. */
function assertCanDecide(res: Response, app: string): void {
  assertCanSee(res, app)
  if (!canDecideApp(staffAccountOf(res), app)) {
    throw new AppError('FORBIDDEN', {
      status: 403,
      message: "moving claims in bulk needs the app's decide right, which an admin grants",
    })
  }
}

function selectionOf(res: Response) {
  const account = staffAccountOf(res)
  return { accountId: account.id, visibleApps: visibleApps(account) }
}
