import type { Kysely } from 'kysely'
import { cureMoves, type Reviews } from '../../src/review-config.ts'
import type { Database } from '../db/database.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import type { RowJobHandler } from '../jobs/job-handler.ts'
import { errorCode, type Logger } from '../logger.ts'
import { SERVER_ACTOR } from './claim-cures.ts'
import { recordMove } from '../lifecycle/move-claim.ts'

export const END_CURE_PERIOD = 'end-cure-period'

/** A cure period over: the claim moves to not_cured if it is still deficient, and the cure ends either way. */
export function endCurePeriodJob({
  db,
  reviews,
  evidenceKey,
  logger,
  pollMs = 60_000,
}: {
  db: Kysely<Database>
  reviews: Reviews
  evidenceKey: Buffer
  logger: Logger
  pollMs?: number
}): RowJobHandler<'claim_cures'> {
  return {
    kind: END_CURE_PERIOD,
    table: 'claim_cures',
    where: (eb, now) => eb.and([eb('ended_at', 'is', null), eb('expires_at', '<=', now)]),
    pollMs,
    batch: 100,
    async run({ row: cure, now, end }) {
      const claim = await db
        .selectFrom('claims')
        .select(['review_status', 'review_version'])
        .where('id', '=', cure.claim_id)
        .executeTakeFirstOrThrow()
      const review = reviews(cure.app)
      const notCured = cureMoves(review, claim.review_status)?.notCured
      try {
        await retryWhileLocked(() =>
          db.transaction().execute(async (trx) => {
            if (!(await end(trx))) return
            await trx.updateTable('claim_cures').set({ ended_at: now }).where('id', '=', cure.id).execute()
            if (notCured === undefined) return
            await recordMove(trx, {
              evidenceKey,
              review,
              claim: {
                id: Number(cure.claim_id),
                app: cure.app,
                status: claim.review_status,
                version: Number(claim.review_version),
              },
              to: notCured,
              by: SERVER_ACTOR,
              mover: 'system',
              at: now,
            })
          }),
        )
        return 'ended'
      } catch (error) {
        // moved meanwhile (cured a moment ago): the next run finds the cure ended
        logger.warn({ claimId: Number(cure.claim_id), err: errorCode(error) }, 'cure period end not recorded')
        return 'retry'
      }
    },
  }
}
