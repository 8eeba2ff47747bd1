import type { Kysely } from 'kysely'
import { claimFraudStanding, type ClaimFraud, type RelatedClaim } from '../../src/api/fraud.ts'
import type { FraudConfig, FraudReason } from '../../src/fraud-config.ts'
import type { Database } from '../db/database.ts'
import { findFraudCluster } from './fraud-cluster.ts'

/**
 * A claim's fraud score as its details show it: the standing, each reason with its test's label and the
 * related claims the account may see (`canSee`), the "Not fraud" decision, and the cluster's size.
 */
export async function readClaimFraud(
  db: Kysely<Database>,
  {
    claimId,
    config,
    canSee,
    mayDecide,
  }: { claimId: number; config: FraudConfig; canSee: (app: string) => boolean; mayDecide: boolean },
): Promise<ClaimFraud> {
  const row = await db
    .selectFrom('claims')
    .leftJoin('fraud_scores', 'fraud_scores.claim_id', 'claims.id')
    .select([
      'claims.fraud_score',
      'claims.fraud_cleared_at',
      'fraud_scores.reasons',
      'fraud_scores.scored_at',
      'fraud_scores.cleared_by',
      'fraud_scores.cleared_note',
      'fraud_scores.cleared_score',
    ])
    .where('claims.id', '=', claimId)
    .executeTakeFirstOrThrow()
  const score = row.fraud_score === null ? null : Number(row.fraud_score)
  const clearedAt = row.fraud_cleared_at === null ? null : Number(row.fraud_cleared_at)
  // a claim scored again keeps its reasons in the row only once it has a score
  const reasons = score === null ? [] : (JSON.parse(row.reasons ?? '[]') as FraudReason[])
  const related = await relatedApps(db, [...new Set(reasons.flatMap((reason) => reason.related ?? []))])
  const cluster = await findFraudCluster(db, claimId)
  return {
    claimId,
    score,
    standing: claimFraudStanding(config, { score, clearedAt }),
    thresholds: { ...config.thresholds },
    reasons: reasons.map((reason) => ({
      code: reason.code,
      label: config.tests[reason.code]?.label ?? reason.code,
      points: reason.points,
      text: reason.text,
      related: (reason.related ?? []).flatMap((id) => {
        const app = related.get(id)
        return app !== undefined && canSee(app) ? [{ id, app } satisfies RelatedClaim] : []
      }),
    })),
    scoredAt: row.scored_at === null ? null : new Date(Number(row.scored_at)).toISOString(),
    cleared:
      clearedAt === null
        ? null
        : {
            at: new Date(clearedAt).toISOString(),
            by: row.cleared_by ?? '',
            note: row.cleared_note ?? '',
            score: Number(row.cleared_score ?? score ?? 0),
          },
    clusterSize: cluster.members.filter((member) => canSee(member.app)).length,
    isClusterCapped: cluster.isCapped,
    mayDecide,
  }
}

/** Each claim's app, for those that still exist. */
async function relatedApps(db: Kysely<Database>, ids: number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map()
  const rows = await db.selectFrom('claims').select(['id', 'app']).where('id', 'in', ids).execute()
  return new Map(rows.map((row) => [Number(row.id), row.app]))
}
