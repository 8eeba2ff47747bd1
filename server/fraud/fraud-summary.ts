import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

/** A claim's fraud reasons' codes, in byte order. */
export async function fraudCodesOf(
  db: Pick<Kysely<Database>, 'selectFrom'>,
  claimId: number,
): Promise<string[]> {
  const rows = await db.selectFrom('fraud_reasons').select('code').where('claim_id', '=', claimId).execute()
  return rows.map((row) => row.code).sort()
}

/**
 * How an audit entry seals a score and the reasons decided on, kept short: a reviewer's decision on a
 * claim ("Not fraud", a move) records what they saw.
 * @example fraudSummary(400, ['device_shared', 'phone_shared']) // 'fraud score 400 (device_shared, phone_shared)'
 */
export function fraudSummary(score: number, codes: readonly string[]): string {
  return `fraud score ${score} (${codes.length === 0 ? 'no reasons' : codes.join(', ')})`
}
