import { sql, type Kysely, type Transaction } from 'kysely'
import { approvedStatuses, REVIEW_ROLES, type Reviews } from '../../src/review-config.ts'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { retryWhileLocked } from '../db/shared-transaction.ts'
import { FormConfigError } from '../forms/load-form-configs.ts'
import { REVIEW_CONFIG_FILE } from './load-review-config.ts'

/**
 * Writes each app's review roles into review_roles, where the funnel's triggers read them (a database
 * trigger cannot read the config: migration 2026_12_07_1630). An app whose roles changed since the last
 * start (the first start, or a status renamed in its config) has its funnel's approved counts taken
 * again from its claims in the same transaction, so the counters follow the config. Run once before
 * any server process serves; returns the apps recounted. Refuses (FormConfigError) a review whose
 * initial status is not the one the database gives a new claim.
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
  // a claim is written without a status and takes the column's default; the status counters leave
  // that one status out (migration 2026_11_28_1500), so the config's initial must be it
  const first = await firstStatus(db, postgres)
  const initials = new Set(wanted.map(({ review }) => review.initial))
  for (const initial of initials) {
    if (initial !== first) {
      throw new FormConfigError([
        `${REVIEW_CONFIG_FILE}: /initial: "${initial}" is not the status the database starts every claim in: set "${first}"`,
      ])
    }
  }
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

/** The status the database gives a claim written without one: claims.review_status's default. */
async function firstStatus(db: Kysely<Database>, postgres: boolean): Promise<string> {
  const declared = postgres
    ? (
        await sql<{ value: string | null }>`
          SELECT column_default AS value FROM information_schema.columns
          WHERE table_schema = current_schema() AND table_name = 'claims' AND column_name = 'review_status'`.execute(
          db,
        )
      ).rows[0]?.value
    : (
        await sql<{ name: string; dflt_value: string | null }>`PRAGMA table_info(claims)`.execute(db)
      ).rows.find((column) => column.name === 'review_status')?.dflt_value
  // a quoted text: 'received' (SQLite), 'received'::text (PostgreSQL)
  return /^'((?:[^']|'')*)'/.exec(declared ?? '')?.[1]?.replaceAll("''", "'") ?? ''
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
