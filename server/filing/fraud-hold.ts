import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely'
import type { BatchKind } from '../../src/api/filing-batches.ts'
import type { Database } from '../db/database.ts'

/**
 * A claim a notice or filing batch may take, as a condition on claims: scored, and above the app's hold
 * threshold or cleared by a decider ("Not fraud"). A claim not scored yet waits for its score: a ring's
 * claims are filed in a burst, and the batch must not outrun the job that scores them.
 */
export function isClearOfFraudHold(hold: number): RawBuilder<SqlBool> {
  return sql<SqlBool>`(claims.fraud_score > ${hold} OR (claims.fraud_score IS NOT NULL AND claims.fraud_cleared_at IS NOT NULL))`
}

/**
 * Why the fraud hold keeps a claim out of a batch (undefined when it does not): not scored yet, or at
 * or below `hold` with no decider's clearance.
 */
export function fraudHoldProblem(
  claim: { claimId: number; fraudScore: number | null; fraudCleared: boolean },
  hold: number,
): string | undefined {
  if (claim.fraudScore === null) {
    return `claim ${claim.claimId}: not scored for fraud yet; it can go in once its score is in`
  }
  if (claim.fraudScore <= hold && !claim.fraudCleared) {
    return `claim ${claim.claimId}: held for fraud review (score ${claim.fraudScore}, at or below ${hold}) until a decider clears it`
  }
  return undefined
}

/**
 * How many of the app's claims ready to file (in the status `ready`, not disowned) that a batch of
 * `kind` would take are kept out by the fraud hold: held (at or below `hold`, not cleared) and not
 * scored yet. Both read the claims' (app, fraud_score) index: held claims are few.
 */
export async function countFraudHeld(
  db: Kysely<Database>,
  { app, ready, kind, hold }: { app: string; ready: string; kind: BatchKind; hold: number },
): Promise<{ held: number; unscored: number }> {
  const base = db
    .selectFrom('claims')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('claims.app', '=', app)
    .where('claims.review_status', '=', ready)
    .where('claims.disowned_at', 'is', null)
    .$call((query) =>
      kind === 'notice'
        ? query.where('claims.notice_batch_id', 'is', null)
        : query.where('claims.filing_batch_id', 'is', null).where('claims.notice_batch_id', 'is not', null),
    )
  const [held, unscored] = await Promise.all([
    base
      .where('claims.fraud_score', '<=', hold)
      .where('claims.fraud_cleared_at', 'is', null)
      .executeTakeFirstOrThrow(),
    base.where('claims.fraud_score', 'is', null).executeTakeFirstOrThrow(),
  ])
  return { held: Number(held.count), unscored: Number(unscored.count) }
}
