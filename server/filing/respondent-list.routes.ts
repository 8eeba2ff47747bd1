import express, { Router, type Request, type Response } from 'express'
import { sql, type Kysely } from 'kysely'
import type { BulkMoveStarted } from '../../src/api/bulk-moves.ts'
import {
  RESPONDENT_LISTS,
  type RespondentList,
  type RespondentListImported,
} from '../../src/api/respondent-list.ts'
import { AppError } from '../../src/app-error.ts'
import type { FormConfig } from '../../src/form-config.ts'
import type { Reviews } from '../../src/review-config.ts'
import { actorOf } from '../audit/audit-log.ts'
import type { Database } from '../db/database.ts'
import { findFormOrThrow } from '../forms/find-form.ts'
import { linkOrigin } from '../public-origin.ts'
import { parseBulkMove } from '../review/bulk-move-selection.ts'
import type { BulkMoves } from '../review/bulk-moves.ts'
import { queueBulkMove } from '../review/queue-bulk-move.ts'
import { staffAccountOf } from '../staff/require-staff.ts'
import { chunks } from '../db/id-chunks.ts'
import { importRespondentList } from './respondent-list.ts'

/** The reason whose cure asks the claimant for proof of an account (forms/base/review.json). */
const ACCOUNT_PROOF_REASON = 'account_unverified'

/**
 * The company's lists, on the app's "Notices and filing" page: importing a respondent's "not a
 * customer" or "duplicate" list, and asking the claims it named to prove their account. Admins only.
 * Mounted after requireStaff and sameOriginOnly.
 */
export function respondentListRoutes({
  db,
  forms,
  reviews,
  evidenceKey,
  bulkMoves,
}: {
  db: Kysely<Database>
  forms: Map<string, FormConfig>
  reviews: Reviews
  evidenceKey: Buffer
  /** Woken by the account-proof action's bulk move; left out, it waits for a process that runs them. */
  bulkMoves?: Pick<BulkMoves, 'wake'> | undefined
}): Router {
  const router = Router({ caseSensitive: true })
  const base = '/api/staff/apps/:slug/batches/respondent-list'
  // a company's list of 100,000 claimants, e-mail, phone and reference each
  const csv = express.text({ type: ['text/csv', 'text/plain'], limit: '10mb' })
  const json = express.json({ limit: '256kb' })
  const by = (req: Request, res: Response) => {
    const account = staffAccountOf(res)
    const { clientAddress } = actorOf(req, res)
    return { clientAddress, accountId: account.id, actor: account.email, linkOrigin: linkOrigin(req) }
  }

  router.post(base, csv, async (req, res) => {
    assertAdmin(res)
    const { slug } = findFormOrThrow(forms, String(req.params.slug))
    const list = parseList(req.query.list)
    if (typeof req.body !== 'string') throw badRequest("send the company's list as text/csv")
    const imported = await importRespondentList(db, {
      app: slug,
      list,
      text: req.body,
      evidenceKey,
      by: by(req, res),
    })
    res.json(imported satisfies RespondentListImported)
  })

  router.post(`${base}/account-proof`, json, async (req, res) => {
    assertAdmin(res)
    const { slug } = findFormOrThrow(forms, String(req.params.slug))
    const review = reviews(slug)
    if (!review.reasons[ACCOUNT_PROOF_REASON]) {
      throw new AppError('CONFLICT', {
        status: 409,
        message: `the review config has no "${ACCOUNT_PROOF_REASON}" reason to ask for proof of an account with`,
      })
    }
    const claimIds = (req.body as Record<string, unknown> | undefined)?.claimIds
    if (!Array.isArray(claimIds) || claimIds.length === 0) {
      throw badRequest('"claimIds" must list the claims the company\'s list named')
    }
    // the move as a reviewer's bulk move checks it: a status reviewers move claims to, a reason it takes
    const move = parseBulkMove({ to: review.roles.cure, reason: ACCOUNT_PROOF_REASON, ids: claimIds }, review)
    const ids = 'ids' in move.selection ? move.selection.ids : []
    await assertListed(db, slug, ids)
    const started = await queueBulkMove(db, {
      app: slug,
      move: { ...move, note: "on the company's list: asked to prove their account" },
      ids: sql<{ id: number }>`(SELECT claims.id FROM claims WHERE claims.id IN (${sql.join(ids)}))`,
      by: by(req, res),
    })
    res.status(202).json(started satisfies BulkMoveStarted)
    bulkMoves?.wake()
  })

  return router
}

/** 403 unless an admin is signed in: a company's list reaches every claimant of the app. */
function assertAdmin(res: Response): void {
  if (staffAccountOf(res).role !== 'admin') {
    throw new AppError('FORBIDDEN', {
      status: 403,
      message: "importing the company's list and acting on it is an admin's",
    })
  }
}

/** 400 unless every claim is one of the app's that a company's list flagged. */
async function assertListed(db: Kysely<Database>, app: string, ids: number[]): Promise<void> {
  const listed = new Set<number>()
  for (const part of chunks(ids)) {
    const rows = await db
      .selectFrom('respondent_flags')
      .innerJoin('claims', 'claims.id', 'respondent_flags.claim_id')
      .select('respondent_flags.claim_id')
      .where('claims.app', '=', app)
      .where('respondent_flags.claim_id', 'in', part)
      .execute()
    for (const row of rows) listed.add(Number(row.claim_id))
  }
  const others = ids.filter((id) => !listed.has(id))
  if (others.length > 0) {
    throw badRequest(
      `claim ${others.slice(0, 5).join(', ')}${others.length > 5 ? ` and ${others.length - 5} more` : ''} is not on the company's list of this app`,
    )
  }
}

function parseList(value: unknown): RespondentList {
  if ((RESPONDENT_LISTS as readonly unknown[]).includes(value)) return value as RespondentList
  throw badRequest(`"list" must be ${RESPONDENT_LISTS.join(' or ')}, not "${String(value)}"`)
}

function badRequest(message: string): AppError {
  return new AppError('BAD_REQUEST', { status: 400, message })
}
