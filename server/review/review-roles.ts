import { sql, type Kysely, type Transaction } from 'kysely'
import { approvedStatuses, REVIEW_ROLES, type Reviews } from '../../src/review-config.ts'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'

/**
 * Writes each app's review roles into review_roles, where the funnel's triggers read them (a database
 * trigger cannot read the config: migration 2026_12_07_1630). An app whose roles changed since the last
 * start (the first start, or a status renamed in its config) has its funnel's approved counts taken
 * again from its claims in the same transaction, so the counters follow the config. Run once before
 * any server process serves; returns the apps recounted.
 */
export async function syncReviewRoles({
  db,
  reviews,
  apps,
}: {
  db: Kysely<Database>
  reviews: Reviews
  apps: Iterable<string>
}): Promise<string[]> {
  const wanted = [...apps].map((app) => ({ app, review: reviews(app) }))
  const postgres = isPostgresDb(db)
  // another process's transaction may hold SQLite's write lock
  return retryWhileLocked(() =>
    db.transaction().execute(async (trx) => {
      const stored = await trx.selectFrom('review_roles').selectAll().execute()
      const recounted: string[] = []
      for (const { app, review } of wanted) {
        const had = new Map(stored.filter((row) => row.app === app).map((row) => [row.role, row.status]))
        const same =
          had.size === REVIEW_ROLES.length &&
          REVIEW_ROLES.every((role) => had.get(role) === review.roles[role])
        if (same) continue
        await trx.deleteFrom('review_roles').where('app', '=', app).execute()
        await trx
          .insertInto('review_roles')
          .values(REVIEW_ROLES.map((role) => ({ app, role, status: review.roles[role] })))
          .execute()
        await recountApproved(trx, { app, statuses: approvedStatuses(review), postgres })
        recounted.push(app)
      }
      return recounted
    }),
  )
}

/** The app's funnel_days.approved, counted from its claims in `statuses` (the triggers keep it after). */
async function recountApproved(
  trx: Transaction<Database>,
  { app, statuses, postgres }: { app: string; statuses: string[]; postgres: boolean },
): Promise<void> {
  const day = postgres
    ? sql.raw(`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`)
    : sql.raw('substr(created_at, 1, 10)')
  await sql`UPDATE funnel_days SET approved = 0 WHERE app = ${app} AND approved <> 0`.execute(trx)
  // every claim's day has its row already (the triggers count its claim): only approved changes
  await sql`
    INSERT INTO funnel_days (source, app, day, intakes, claims, confirmed, approved)
    SELECT source, app, ${day}, 0, 0, 0, count(*) FROM claims
    WHERE app = ${app} AND review_status IN (${sql.join(statuses)})
    GROUP BY source, app, ${day}
    ON CONFLICT (source, app, day) DO UPDATE SET approved = excluded.approved`.execute(trx)
}
