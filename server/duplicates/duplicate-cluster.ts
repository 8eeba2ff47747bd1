import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

// a cluster is decided in one transaction and listed on one screen: one larger than this is a crowd
// sending one picture, decided pair by pair (or left flagged) rather than cleared with one click
export const MAX_CLUSTER_CLAIMS = 200

/** The claims connected to this one by flags (screenshot_matches), this one included, each with its app. */
export async function findDuplicateCluster(
  db: Kysely<Database>,
  claimId: number,
): Promise<{ claims: { id: number; app: string }[]; isTooLarge: boolean }> {
  const seen = new Set([claimId])
  let frontier = [claimId]
  while (frontier.length > 0 && seen.size <= MAX_CLUSTER_CLAIMS) {
    const rows = await db
      .selectFrom('screenshot_matches')
      .select('other_claim_id')
      .where('claim_id', 'in', frontier)
      .execute()
    frontier = []
    for (const { other_claim_id } of rows) {
      const id = Number(other_claim_id)
      if (seen.has(id)) continue
      seen.add(id)
      frontier.push(id)
    }
  }
  const isTooLarge = seen.size > MAX_CLUSTER_CLAIMS
  const ids = [...seen].sort((a, b) => a - b).slice(0, MAX_CLUSTER_CLAIMS)
  const claims = await db
    .selectFrom('claims')
    .select(['id', 'app'])
    .where('id', 'in', ids)
    .orderBy('id')
    .execute()
  return { claims: claims.map((claim) => ({ id: Number(claim.id), app: claim.app })), isTooLarge }
}
