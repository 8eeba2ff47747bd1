import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/database.ts'

/**
 * The status new claims start in (claims.review_status's default), which claim_app_statuses does not
 * keep, so that a new claim's insert touches no counter there: its count is the app's total less the
 * other statuses' (migration 2026_11_28_1500).
 */
export const UNKEPT_STATUS = 'received'

/** How many of the app's claims are in each review status (`total`: the app's), from the counters. */
export async function appStatusCounts(
  db: Kysely<Database>,
  { app, total }: { app: string; total: number },
): Promise<Map<string, number>> {
  const { rows } = await sql<{ status: string; claims: number | string | bigint }>`
    SELECT status, claims FROM claim_app_statuses WHERE app = ${app}`.execute(db)
  const counts = new Map(rows.map(({ status, claims }) => [status, Number(claims)]))
  let kept = 0
  for (const count of counts.values()) kept += count
  counts.set(UNKEPT_STATUS, total - kept)
  return counts
}

/** How many of the app's claims are in one review status. */
export async function appStatusCount(
  db: Kysely<Database>,
  { app, status, total }: { app: string; status: string; total: number },
): Promise<number> {
  if (status === UNKEPT_STATUS) return (await appStatusCounts(db, { app, total })).get(status) ?? 0
  const { rows } = await sql<{ claims: number | string | bigint }>`
    SELECT claims FROM claim_app_statuses WHERE app = ${app} AND status = ${status}`.execute(db)
  return Number(rows[0]?.claims ?? 0)
}
