import { sql, type Kysely, type Transaction } from 'kysely'
import type { FraudConfigs } from '../../src/fraud-config.ts'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'

/**
 * Writes each app's hold threshold into fraud_holds, where the funnel's fraud triggers read it (a
 * database trigger cannot read the config: migration 2026_12_09_1500). An app whose threshold changed
 * since the last start (the first start among them) has its funnel's scored and held claims counted
 * again from its claims in the same transaction, so the fraud rate follows the config. Run once before
 * any server process serves; returns the apps recounted.
 */
export async function syncFraudHolds({
  db,
  fraud,
  apps,
}: {
  db: Kysely<Database>
  fraud: FraudConfigs
  apps: Iterable<string>
}): Promise<string[]> {
  const wanted = [...apps].map((app) => ({ app, hold: fraud(app).thresholds.hold }))
  const postgres = isPostgresDb(db)
  // another process's transaction may hold SQLite's write lock
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const stored = new Map(
        (await trx.selectFrom('fraud_holds').selectAll().execute()).map((row) => [row.app, Number(row.hold)]),
      )
      const recounted: string[] = []
      for (const { app, hold } of wanted) {
        if (stored.get(app) === hold) continue
        await trx
          .insertInto('fraud_holds')
          .values({ app, hold })
          .onConflict((conflict) => conflict.column('app').doUpdateSet({ hold }))
          .execute()
        await recountFraud(trx, { app, hold, postgres })
        recounted.push(app)
      }
      return recounted
    }),
  )
}

/** The app's funnel_days.scored and .held, counted from its scored claims (the triggers keep them after). */
async function recountFraud(
  trx: Transaction<Database>,
  { app, hold, postgres }: { app: string; hold: number; postgres: boolean },
): Promise<void> {
  const day = postgres
    ? sql.raw(`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`)
    : sql.raw('substr(created_at, 1, 10)')
  await sql`UPDATE funnel_days SET scored = 0, held = 0 WHERE app = ${app} AND (scored <> 0 OR held <> 0)`.execute(
    trx,
  )
  // every claim's day has its row already (the triggers count its claim): only these two change
  await sql`
    INSERT INTO funnel_days (source, app, day, scored, held)
    SELECT source, app, ${day}, count(*),
      sum(CASE WHEN fraud_cleared_at IS NULL AND fraud_score <= ${hold} THEN 1 ELSE 0 END)
    FROM claims WHERE app = ${app} AND fraud_score IS NOT NULL
    GROUP BY source, app, ${day}
    ON CONFLICT (source, app, day) DO UPDATE SET scored = excluded.scored, held = excluded.held`.execute(trx)
}
