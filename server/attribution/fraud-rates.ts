import { sql, type Kysely } from 'kysely'
import type { FraudConfigs } from '../../src/fraud-config.ts'
import type { Database } from '../db/database.ts'
import { DAY_MS } from '../../src/durations.ts'

/** One source's scored and held claims. */
export interface SourceFraud {
  scored: number
  held: number
}

/**
 * Per campaign source, the claims filed on the days from `from` to `to` (UTC, both included) with a
 * fraud score, and of those the held ones (at or below their app's hold threshold, not cleared as "Not
 * fraud"). One grouped read per app of its days' claims by claims_app_created_at (app, created_at): the
 * funnel's counters cannot keep it, as the hold threshold is the app's config and a score comes later.
 */
export async function readFraudRates(
  db: Kysely<Database>,
  { from, to, apps, fraud }: { from: string; to: string; apps: string[]; fraud: FraudConfigs },
): Promise<Map<string, SourceFraud>> {
  const start = new Date(`${from}T00:00:00.000Z`).toISOString()
  const end = new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS).toISOString()
  const bySource = new Map<string, SourceFraud>()
  for (const app of apps) {
    const { hold } = fraud(app).thresholds
    const rows = await db
      .selectFrom('claims')
      .select((eb) => [
        'source',
        eb.fn.count<number | string | bigint>('fraud_score').as('scored'),
        sql<
          number | string | bigint
        >`sum(CASE WHEN fraud_score <= ${hold} AND fraud_cleared_at IS NULL THEN 1 ELSE 0 END)`.as('held'),
      ])
      .where('app', '=', app)
      .where('created_at', '>=', start)
      .where('created_at', '<', end)
      .groupBy('source')
      .execute()
    for (const row of rows) {
      const counts = bySource.get(row.source) ?? { scored: 0, held: 0 }
      counts.scored += Number(row.scored)
      counts.held += Number(row.held ?? 0)
      bySource.set(row.source, counts)
    }
  }
  return bySource
}
