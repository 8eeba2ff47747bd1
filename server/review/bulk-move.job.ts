import type { Kysely, Transaction } from 'kysely'
import { canDecideApp } from '../../src/api/staff.ts'
import { AppError } from '../../src/app-error.ts'
import { allowedMoves, cureMoves, type Reviews } from '../../src/review-config.ts'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { JobContext, RowJobHandler } from '../jobs/job-handler.ts'
import { errorCode, type Logger } from '../logger.ts'
import { writeAuditEntry } from '../audit/audit-log.ts'
import { loadAccountView } from '../staff/staff-accounts.ts'
import type { ClaimCures } from './claim-cures.ts'
import { recordMove } from '../lifecycle/move-claim.ts'

export const BULK_MOVE = 'bulk-move'

/** The most claims a page moves in one transaction. */
const PAGE_CLAIMS = 500
/**
 * A page also ends after this long: while its transaction runs, SQLite's one connection (and, on
 * PostgreSQL, the evidence ledger's lock) is the job's, and the dashboards' requests wait for it.
 */
const PAGE_MS = 15
/** While requests are under way, the job waits this share of a page's time after each page. */
const YIELD_SHARE = 0.5
/** A job fails once this many pages in a row failed; the pages before stay moved. */
const MAX_FAILURES = 3

type PageDone = 'done' | { afterId: number; isCurable: boolean }

/** Another process took the job up (this one's lease ran out): this one lets it go, its page undone. */
class LeaseLost extends Error {
  constructor() {
    super('the bulk move was taken up by another process')
  }
}

/**
 * A bulk move (POST /api/staff/apps/:slug/bulk-moves queues one), resumed after a restart from the last
 * page done. Each page moves up to PAGE_CLAIMS claims in one transaction, each checked from its status
 * now and recorded by recordMove as a single move is; a claim whose status does not allow the move, or
 * that was moved meanwhile, is skipped. Between pages the job gives way to the server's requests.
 */
export function bulkMoveJob({
  db,
  reviews,
  evidenceKey,
  claimCures,
  logger,
  pollMs = 5_000,
}: {
  db: Kysely<Database>
  reviews: Reviews
  evidenceKey: Buffer
  /** Told after a page that moved claims into a curable status: their notices go. */
  claimCures?: Pick<ClaimCures, 'wake'> | undefined
  logger: Logger
  pollMs?: number
}): RowJobHandler<'bulk_moves'> {
  const isPostgres = isPostgresDb(db)

  /** Moves the next page of the job's claims after `afterId`, or finishes the job when none is left. */
  const movePage = async (
    trx: Transaction<Database>,
    ctx: JobContext<'bulk_moves'>,
    afterId: number,
  ): Promise<PageDone> => {
    const job = ctx.row
    const ids = (
      await trx
        .selectFrom('bulk_move_claims')
        .select('claim_id')
        .where('bulk_move_id', '=', job.id)
        .where('claim_id', '>', afterId)
        .orderBy('claim_id')
        .limit(PAGE_CLAIMS)
        .execute()
    ).map(({ claim_id }) => Number(claim_id))
    if (ids.length === 0) {
      await finishIn(trx, ctx, 'done')
      return 'done'
    }
    const read = trx
      .selectFrom('claims')
      .select(['id', 'app', 'review_status', 'review_version'])
      .where('id', 'in', ids)
      .orderBy('id')
    // PostgreSQL: the page's claims locked first, in id order, as a single move locks its claim before the
    // ledger: a move under way finishes before the page goes on, and neither waits on the other in a cycle
    const claims = await (isPostgres ? read.forUpdate() : read).execute()
    const byId = new Map(claims.map((claim) => [Number(claim.id), claim]))
    const review = reviews(job.app)
    const began = performance.now()
    let moved = 0
    let skipped = 0
    let lastId = afterId
    for (const id of ids) {
      if (moved + skipped > 0 && performance.now() - began > PAGE_MS) break
      lastId = id
      const claim = byId.get(id)
      const from = claim?.review_status
      if (!claim || claim.app !== job.app || !allowedMoves(review, from!, 'staff').includes(job.to_status)) {
        skipped++
        continue
      }
      try {
        await recordMove(trx, {
          evidenceKey,
          review,
          claim: { id, app: claim.app, status: claim.review_status, version: Number(claim.review_version) },
          to: job.to_status,
          reason: job.reason ?? undefined,
          reasonText: job.reason_text ?? undefined,
          note: job.note ?? undefined,
          by: {
            clientAddress: job.client_address,
            accountId: Number(job.account_id),
            actor: job.actor,
            linkOrigin: job.link_origin,
          },
          mover: 'staff',
          // run checked the account's decide right when it took the job up
          mayDecide: true,
        })
        moved++
      } catch (error) {
        // moved meanwhile (recordMove wrote nothing): skipped, as a claim the move does not suit
        if (!(error instanceof AppError && error.status === 409)) throw error
        skipped++
      }
    }
    if (!(await ctx.renew(trx))) throw new LeaseLost()
    await trx
      .updateTable('bulk_moves')
      .set((eb) => ({
        moved: eb('moved', '+', moved),
        skipped: eb('skipped', '+', skipped),
        after_id: lastId,
        failures: 0,
      }))
      .where('id', '=', job.id)
      .execute()
    return { afterId: lastId, isCurable: moved > 0 && cureMoves(review, job.to_status) !== undefined }
  }

  /** The job ends: its status, its claims' list gone, and one audit entry for the whole of it. */
  const finishIn = async (
    trx: Transaction<Database>,
    ctx: JobContext<'bulk_moves'>,
    status: 'done' | 'failed',
    why?: string,
  ) => {
    const job = ctx.row
    if (!(await ctx.end(trx))) throw new LeaseLost()
    const updated = await trx
      .updateTable('bulk_moves')
      .set({ status, finished_at: Date.now() })
      .where('id', '=', job.id)
      .returning(['moved', 'skipped', 'total'])
      .executeTakeFirstOrThrow()
    await trx.deleteFrom('bulk_move_claims').where('bulk_move_id', '=', job.id).execute()
    const moved = Number(updated.moved)
    const skipped = Number(updated.skipped)
    const left = Number(updated.total) - moved - skipped
    const reason = job.reason ? ` (${job.reason})` : ''
    await writeAuditEntry(trx, evidenceKey, {
      clientAddress: job.client_address,
      accountId: Number(job.account_id),
      actor: job.actor,
      app: job.app,
      action: 'bulk_move',
      detail:
        `bulk move ${job.id}${status === 'failed' ? ` failed (${why})` : ''}: ` +
        `${moved} claims → ${job.to_status}${reason}` +
        (skipped > 0 ? `, ${skipped} skipped` : '') +
        (status === 'failed' && left > 0 ? `, ${left} not done` : ''),
    })
  }

  const fail = (ctx: JobContext<'bulk_moves'>, why: string) =>
    retryWhileLocked(() => db.transaction().execute((trx) => finishIn(trx, ctx, 'failed', why))).catch(
      (error: unknown) => {
        if (!(error instanceof LeaseLost)) throw error
      },
    )

  return {
    kind: BULK_MOVE,
    table: 'bulk_moves',
    pollMs,
    batch: 1,
    async run(ctx) {
      const job = ctx.row
      if (job.status === 'queued') {
        await retryWhileLocked(() =>
          db.updateTable('bulk_moves').set({ status: 'running' }).where('id', '=', job.id).execute(),
        )
      }
      // fail-closed: a reviewer whose decide right (or account) went since the job was queued moves nothing more
      const account = await loadAccountView(db, Number(job.account_id))
      if (!account || !canDecideApp(account, job.app)) {
        await fail(ctx, 'the decide right was withdrawn')
        return 'ended'
      }
      let afterId = Number(job.after_id)
      for (;;) {
        // the process is stopping: the job goes back, for the next process (or this one restarted) at once
        if (ctx.isStopped()) return 'handed-back'
        const started = performance.now()
        let page: PageDone
        try {
          page = await retryWhileLocked(() => db.transaction().execute((trx) => movePage(trx, ctx, afterId)))
        } catch (error) {
          if (error instanceof LeaseLost) return 'ended'
          logger.warn({ bulkMove: Number(job.id), err: errorCode(error) }, 'bulk move page failed')
          const row = await db
            .selectFrom('bulk_moves')
            .select('failures')
            .where('id', '=', job.id)
            .executeTakeFirst()
          const failures = Number(row?.failures ?? 0) + 1
          if (failures >= MAX_FAILURES) {
            await fail(ctx, `a page failed ${MAX_FAILURES} times`)
            return 'ended'
          }
          await retryWhileLocked(() =>
            db.updateTable('bulk_moves').set({ failures }).where('id', '=', job.id).execute(),
          )
          // handed back for the next run
          return 'retry'
        }
        if (page === 'done') return 'ended'
        afterId = page.afterId
        if (page.isCurable) claimCures?.wake()
        await ctx.quietMoment(Date.now() + YIELD_SHARE * (performance.now() - started))
      }
    },
  }
}
