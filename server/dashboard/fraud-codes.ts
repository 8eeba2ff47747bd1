import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

/**
 * The fraud reasons' codes of these claims, each claim's in byte order (as the PostgreSQL export orders
 * them): one read of fraud_reasons' primary key for an export's page. Give only the claims scored below
 * the maximum; the others have none.
 */
export async function findFraudCodes(
  db: Kysely<Database>,
  claimIds: number[],
): Promise<Map<number, string[]>> {
  const codes = new Map<number, string[]>()
  if (claimIds.length === 0) return codes
  const rows = await db
    .selectFrom('fraud_reasons')
    .select(['claim_id', 'code'])
    .where('claim_id', 'in', claimIds)
    .execute()
  for (const { claim_id, code } of rows) {
    const id = Number(claim_id)
    const list = codes.get(id)
    if (list) list.push(code)
    else codes.set(id, [code])
  }
  for (const list of codes.values()) list.sort()
  return codes
}
