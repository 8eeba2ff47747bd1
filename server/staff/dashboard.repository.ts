import { sql, type Kysely } from 'kysely'
import type { StaffStats } from '../../src/api/staff.ts'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import {
  ftsInPartition,
  matchesSearch,
  searchPartitionStart,
  sqliteFtsQuery,
  type SearchTerm,
} from './claim-search.ts'

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
  locale: string
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
  'claims.locale',
] as const

const DAILY_WINDOW_DAYS = 90
const ONE_DAY_MS = 24 * 60 * 60 * 1000

/** An app's claims, only those matching the term when there is one. */
export function appClaims(
  db: Kysely<Database>,
  { app, term }: { app: string; term: SearchTerm | undefined },
) {
  const claims = db.selectFrom('claims').where('claims.app', '=', app)
  return term ? claims.where(matchesSearch(isPostgresDb(db), term)) : claims
}

/** An app's claim count, kept by the claim_app_totals triggers. */
async function appTotal(db: Kysely<Database>, app: string): Promise<number> {
  const row = await db
    .selectFrom('claim_app_totals')
    .select('claims')
    .where('app', '=', app)
    .executeTakeFirst()
  return Number(row?.claims ?? 0)
}

/**
 * One page of an app's claims matching the term, newest first, with the match count and the app's total.
 * On SQLite a term of three characters or more goes to the app's partition of the search index
 * (findSqliteSearchPage); any other term is matched by searchPage. The total comes from the app's
 * counter.
 */
export async function findSubmissionsPage(
  db: Kysely<Database>,
  {
    app,
    term,
    page,
    pageSize,
  }: { app: string; term: SearchTerm | undefined; page: number; pageSize: number },
): Promise<{ rows: SubmissionRow[]; count: number; total: number }> {
  const offset = (page - 1) * pageSize
  const fts = term && !isPostgresDb(db) ? sqliteFtsQuery(term) : undefined
  const [found, total] = await Promise.all([
    fts !== undefined
      ? findSqliteSearchPage(db, { app, fts, offset, pageSize })
      : term
        ? searchPage(db, { app, term, offset, pageSize })
        : undefined,
    appTotal(db, app),
  ])
  if (found) return { ...found, total }
  const rows = await appClaims(db, { app, term: undefined })
    .select(SUBMISSION_COLUMNS)
    .orderBy('claims.created_at', 'desc')
    .orderBy('claims.id', 'desc')
    .limit(pageSize)
    .offset(offset)
    .execute()
  return { rows, count: total, total }
}

/**
 * A page of the claims matching a term, and their count, from one pass over the matches: the window
 * count(*) OVER () runs over the matches' ids and dates only, and only the page's rows are read in
 * full. The matches are found once, which for a common surname is most of the work.
 */
async function searchPage(
  db: Kysely<Database>,
  { app, term, offset, pageSize }: { app: string; term: SearchTerm; offset: number; pageSize: number },
): Promise<{ rows: SubmissionRow[]; count: number }> {
  const matching = appClaims(db, { app, term })
  const found = await db
    .with('page', () =>
      matching
        .select([
          'claims.id as page_id',
          'claims.created_at as page_created_at',
          sql<number | string | bigint>`count(*) OVER ()`.as('match_count'),
        ])
        .orderBy('claims.created_at', 'desc')
        .orderBy('claims.id', 'desc')
        .limit(pageSize)
        .offset(offset),
    )
    .selectFrom('page')
    .innerJoin('claims', 'claims.id', 'page.page_id')
    .select([...SUBMISSION_COLUMNS, 'page.match_count'])
    .orderBy('page.page_created_at', 'desc')
    .orderBy('page.page_id', 'desc')
    .execute()
  const rows = found.map(({ match_count: _count, ...row }) => row)
  if (found.length > 0) return { rows, count: Number(found[0]!.match_count) }
  if (offset === 0) return { rows, count: 0 }
  // a page past the last match has no row to carry the count
  const { count } = await matching
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirstOrThrow()
  return { rows, count: Number(count) }
}

/**
 * SQLite, a term of three characters or more, over the app's partition of the search index: the page's
 * ids (newest first), then only the page's rows from claims. The match count comes from the page when
 * the page is the last one (fewer rows than a page: a selective term, one pass), else from a count(*)
 * of its own, which FTS5 answers without building rows (a window count would make SQLite build and
 * sort every match).
 */
async function findSqliteSearchPage(
  db: Kysely<Database>,
  { app, fts, offset, pageSize }: { app: string; fts: string; offset: number; pageSize: number },
): Promise<{ rows: SubmissionRow[]; count: number }> {
  const start = await searchPartitionStart(db, app)
  if (start === undefined) return { rows: [], count: 0 }
  const matches = ftsInPartition(fts, start)
  const { rows: ids } = await sql<{ id: number }>`
    SELECT rowid - ${start} AS id FROM claims_search WHERE ${matches}
    ORDER BY rowid DESC LIMIT ${pageSize} OFFSET ${offset}`.execute(db)
  const isLastPage = ids.length > 0 && ids.length < pageSize
  const count = isLastPage
    ? offset + ids.length
    : Number(
        (
          await sql<{ count: number }>`SELECT count(*) AS count FROM claims_search WHERE ${matches}`.execute(
            db,
          )
        ).rows[0]?.count ?? 0,
      )
  if (ids.length === 0) return { rows: [], count }
  const rows = await db
    .selectFrom('claims')
    .select(SUBMISSION_COLUMNS)
    .where(
      'claims.id',
      'in',
      ids.map(({ id }) => Number(id)),
    )
    .orderBy('claims.id', 'desc')
    .execute()
  return { rows, count }
}

/**
 * The stat cards (averages rounded to whole numbers, 0 when empty) and claims per UTC day for 90 days,
 * read from the counters the claim_app_totals and claim_app_days triggers keep.
 */
export async function computeSubmissionStats(
  db: Kysely<Database>,
  { app, now = new Date() }: { app: string; now?: Date },
): Promise<StaffStats> {
  const todayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  const since = new Date(todayStart - (DAILY_WINDOW_DAYS - 1) * ONE_DAY_MS).toISOString().slice(0, 10)
  const [totals, daily] = await Promise.all([
    db.selectFrom('claim_app_totals').selectAll().where('app', '=', app).executeTakeFirst(),
    db
      .selectFrom('claim_app_days')
      .select(['day', 'claims'])
      .where('app', '=', app)
      .where('day', '>=', since)
      .where('claims', '>', 0)
      .orderBy('day')
      .execute(),
  ])
  const total = Number(totals?.claims ?? 0)
  const average = (sum: number | string | bigint | undefined) =>
    total === 0 ? 0 : Math.round(Number(sum) / total)
  return {
    total,
    avgMembershipMonths: average(totals?.membership_months_sum),
    avgCashAdvances: average(totals?.cash_advance_count_sum),
    daily: daily.map((row) => ({ date: row.day, count: Number(row.claims) })),
  }
}
