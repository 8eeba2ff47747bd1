import { sql, type Kysely } from 'kysely'
import type { Database, Dialect } from '../../server/db/database.ts'
import { addressKey, identityOf, mailboxOf, networkOf } from '../../server/fraud/identity-keys.ts'
import type { KeyKind } from '../../server/fraud/fraud-tests.ts'
import type { PlannedClaim } from './plan.ts'
import { batches } from './write-rows.ts'

/** The keys the job files a claim under (server/fraud/fraud-repository.ts loadScoredClaim), from the plan. */
export function plannedKeys(claim: PlannedClaim): { kind: KeyKind; value: string }[] {
  const values = (list: (string | undefined)[]) => [
    ...new Set(list.filter((value): value is string => !!value)),
  ]
  const address = claim.intake
    ? addressKey({ street: claim.intake.street, line2: claim.intake.line2, zipCode: claim.intake.zip })
    : undefined
  return [
    ...values([claim.signals?.device, claim.intake?.signals?.device]).map((value) => ({
      kind: 'device' as const,
      value,
    })),
    ...values([networkOf(claim.ip), claim.intake ? networkOf(claim.intake.ip) : undefined]).map((value) => ({
      kind: 'network' as const,
      value,
    })),
    { kind: 'email', value: mailboxOf(claim.email) },
    { kind: 'phone', value: claim.phone },
    ...values([address]).map((value) => ({ kind: 'address' as const, value })),
  ]
}

/**
 * For a run at a size too large to score whole: every claim but the sample (the newest) is filed under
 * its keys and marked scored, as a database that has scored its claims as they came would be, so the
 * sample is scored against tables of the full size (claims, fraud_keys). Claims is ordered by id - 1.
 */
export async function fileKeysAhead({
  db,
  dialect,
  claims,
  sample,
  log,
}: {
  db: Kysely<Database>
  dialect: Dialect
  claims: PlannedClaim[]
  sample: Set<number>
  log: (line: string) => void
}): Promise<void> {
  const limit = dialect === 'postgres' ? 65_000 : 32_000
  const CHUNK = 50_000
  for (let start = 0; start < claims.length; start += CHUNK) {
    const rows = claims.slice(start, start + CHUNK).flatMap((claim, n) => {
      const id = start + n + 1
      if (sample.has(id)) return []
      const identity = identityOf(claim.firstName, claim.lastName)
      return plannedKeys(claim).map((key) => ({ ...key, claim_id: id, at: claim.at, identity }))
    })
    await db.transaction().execute(async (trx) => {
      for (const batch of batches(rows, limit)) await trx.insertInto('fraud_keys').values(batch).execute()
    })
    if ((start / CHUNK) % 4 === 3 || start + CHUNK >= claims.length) {
      log(`  keys of ${Math.min(claims.length, start + CHUNK).toLocaleString('en-US')} claims filed`)
    }
  }
  await db.updateTable('fraud_scores').set({ due_at: null, scored_at: 0, reasons: '[]' }).execute()
  const ids = [...sample]
  for (let start = 0; start < ids.length; start += 1000) {
    await db
      .updateTable('fraud_scores')
      .set({ due_at: 0, scored_at: null, reasons: null })
      .where('claim_id', 'in', ids.slice(start, start + 1000))
      .execute()
  }
  if (dialect === 'postgres') await sql`VACUUM ANALYZE`.execute(db)
  else await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(db)
}
