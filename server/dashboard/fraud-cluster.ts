import type { Kysely } from 'kysely'
import { FRAUD_KEY_KINDS, MAX_CLUSTER_CLAIMS, type FraudKeyKind } from '../../src/api/fraud.ts'
import { DAY_MS } from '../../src/durations.ts'
import type { Database } from '../db/database.ts'

/** One claim of a cluster, with the keys it shares with the claim the cluster is of. */
export interface ClusterMember {
  id: number
  app: string
  shared: FraudKeyKind[]
}

/**
 * The claims filed under any of this claim's identity keys (fraud_keys, written as each claim is
 * scored): its device, e-mail (variants fold to one mailbox), phone and postal address at any time, its
 * network only within a day of it, as the score's network test counts (a network alone is shared by
 * strangers: an office, a carrier's gateway). This claim first, then those sharing the most keys, then
 * by id; at most MAX_CLUSTER_CLAIMS, `isCapped` when more share a key. Each key is one read of
 * fraud_keys' primary key (kind, value, claim_id).
 */
export async function findFraudCluster(
  db: Kysely<Database>,
  claimId: number,
): Promise<{ keys: FraudKeyKind[]; members: ClusterMember[]; isCapped: boolean }> {
  const own = await db
    .selectFrom('fraud_keys')
    .select(['kind', 'value', 'at'])
    .where('claim_id', '=', claimId)
    .execute()
  const shared = new Map<number, Set<FraudKeyKind>>()
  let isCapped = false
  for (const key of own) {
    if (!isKeyKind(key.kind)) continue
    let others = db
      .selectFrom('fraud_keys')
      .select('claim_id')
      .where('kind', '=', key.kind)
      .where('value', '=', key.value)
      .where('claim_id', '<>', claimId)
    if (key.kind === 'network') {
      others = others.where('at', '>=', Number(key.at) - DAY_MS).where('at', '<=', Number(key.at) + DAY_MS)
    }
    const rows = await others
      .orderBy('claim_id')
      .limit(MAX_CLUSTER_CLAIMS + 1)
      .execute()
    if (rows.length > MAX_CLUSTER_CLAIMS) isCapped = true
    for (const { claim_id } of rows) {
      const id = Number(claim_id)
      const kinds = shared.get(id) ?? new Set()
      kinds.add(key.kind)
      shared.set(id, kinds)
    }
  }
  const others = [...shared.entries()]
    .sort(([a, kindsA], [b, kindsB]) => kindsB.size - kindsA.size || a - b)
    .slice(0, MAX_CLUSTER_CLAIMS - 1)
  if (shared.size > others.length) isCapped = true
  const ids = [claimId, ...others.map(([id]) => id)]
  const apps = new Map(
    (await db.selectFrom('claims').select(['id', 'app']).where('id', 'in', ids).execute()).map((row) => [
      Number(row.id),
      row.app,
    ]),
  )
  const members = ids.flatMap((id) => {
    const app = apps.get(id)
    if (app === undefined) return [] // purged meanwhile
    return [{ id, app, shared: FRAUD_KEY_KINDS.filter((kind) => shared.get(id)?.has(kind)) }]
  })
  return {
    keys: FRAUD_KEY_KINDS.filter((kind) => own.some((key) => key.kind === kind)),
    members,
    isCapped,
  }
}

function isKeyKind(kind: string): kind is FraudKeyKind {
  return (FRAUD_KEY_KINDS as readonly string[]).includes(kind)
}
