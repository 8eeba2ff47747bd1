import { sql, type Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { isPostgresDb, matchesSearch, type SearchTerm } from './claim-search.ts'

/** What a dashboard shows of a claim: never the signature or the file's storage key. */
export interface SubmissionRow {
  id: number
  created_at: Date | string
  first_name: string
  last_name: string
  email: string
  phone_number: string
  cash_advance_count: number
  membership_months: number
}

export const SUBMISSION_COLUMNS = [
  'claims.id',
  'claims.created_at',
  'claims.first_name',
  'claims.last_name',
  'claims.email',
  'claims.phone_number',
  'claims.cash_advance_count',
  'claims.membership_months',
] as const

const DAILY_WINDOW_DAYS = 90
const ONE_DAY_MS = 24 * 60 * 60 * 1000

/** An app's claims, only those matching the term when there is one. */
export function appClaims(
  db: Kysely<Database>,
  { app, term }: { app: string; term: SearchTerm | undefined },
) {
  const all = db.selectFrom('claims').where('claims.app', '=', app)
  return term ? all.where(matchesSearch(isPostgresDb(db), term)) : all
}

async function countRows(query: ReturnType<typeof appClaims>): Promise<number> {
  const { count } = await query
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirstOrThrow()
  return Number(count)
}

/** One page of an app's claims matching the term, newest first, with the match count and the app's total. */
export async function findSubmissionsPage(
  db: Kysely<Database>,
  {
    app,
    term,
    page,
    pageSize,
  }: { app: string; term: SearchTerm | undefined; page: number; pageSize: number },
): Promise<{ rows: SubmissionRow[]; count: number; total: number }> {
  const matching = appClaims(db, { app, term })
  const [rows, count, total] = await Promise.all([
    matching
      .select(SUBMISSION_COLUMNS)
      .orderBy('claims.created_at', 'desc')
      .orderBy('claims.id', 'desc')
      .limit(pageSize)
      .offset((page - 1) * pageSize)
      .execute(),
    countRows(matching),
    term ? countRows(appClaims(db, { app, term: undefined })) : undefined,
  ])
  return { rows, count, total: total ?? count }
}

export interface SubmissionStats {
  total: number
  avgMembershipMonths: number
  avgCashAdvances: number
  daily: { date: string; count: number }[]
}

/** The stat cards (averages rounded to whole numbers, 0 when empty) and claims per UTC day for 90 days. */
export async function computeSubmissionStats(
  db: Kysely<Database>,
  { app, now = new Date() }: { app: string; now?: Date },
): Promise<SubmissionStats> {
  const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const since = new Date(todayStart - (DAILY_WINDOW_DAYS - 1) * ONE_DAY_MS).toISOString()
  // SQLite keeps created_at as toISOString() text, whose first ten characters are the UTC day
  const day = isPostgresDb(db)
    ? sql<string>`to_char(claims.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`
    : sql<string>`substr(claims.created_at, 1, 10)`
  const [summary, daily] = await Promise.all([
    db
      .selectFrom('claims')
      .where('claims.app', '=', app)
      .select((eb) => [
        eb.fn.countAll<number | string | bigint>().as('total'),
        sql<number | string>`coalesce(round(avg(claims.membership_months)), 0)`.as('avg_months'),
        sql<number | string>`coalesce(round(avg(claims.cash_advance_count)), 0)`.as('avg_advances'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('claims')
      .where('claims.app', '=', app)
      .where('claims.created_at', '>=', since)
      .select((eb) => [day.as('day'), eb.fn.countAll<number | string | bigint>().as('count')])
      .groupBy(day)
      .orderBy(day)
      .execute(),
  ])
  return {
    total: Number(summary.total),
    avgMembershipMonths: Number(summary.avg_months),
    avgCashAdvances: Number(summary.avg_advances),
    daily: daily.map((row) => ({ date: row.day, count: Number(row.count) })),
  }
}
