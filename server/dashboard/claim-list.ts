import type { ListOrder } from '../platform/list-query.ts'
import {
  sql,
  type Expression,
  type ExpressionBuilder,
  type Kysely,
  type RawBuilder,
  type Selectable,
  type SqlBool,
} from 'kysely'
import { MATCH_COUNT_CAP, type VisibleApps } from '../../src/api/staff.ts'
import type { ClaimsTable, Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import { filteredCount, filtersHold, type ClaimFilter } from './claim-filters.ts'
import type { CsvBody } from '../platform/csv.ts'
import type { SearchTerm } from '../platform/search-term.ts'

/** What a dashboard shows of a claim: never the signature or the file's storage key. */
export type ClaimListRow = Pick<
  Selectable<ClaimsTable>,
  | 'id'
  | 'created_at'
  | 'first_name'
  | 'last_name'
  | 'email'
  | 'phone_number'
  | 'cash_advance_count'
  | 'membership_months'
  | 'locale'
  | 'confirmed_at'
  | 'review_status'
  | 'review_reason'
  | 'review_moved_at'
  | 'assignee_id'
  | 'intake_id'
  | 'attribution'
  | 'fraud_score'
  | 'fraud_cleared_at'
> & {
  /** The assignee's e-mail, null when the claim is not assigned. */
  assignee_email: string | null
  /** The claims of other claimants with the same screenshot, when read (findDuplicateIds). */
  duplicate_of?: number[]
}

export const CLAIM_LIST_COLUMNS = [
  'claims.id',
  'claims.created_at',
  'claims.first_name',
  'claims.last_name',
  'claims.email',
  'claims.phone_number',
  'claims.cash_advance_count',
  'claims.membership_months',
  'claims.locale',
  'claims.confirmed_at',
  'claims.review_status',
  'claims.review_reason',
  'claims.review_moved_at',
  'claims.assignee_id',
  // one primary-key read of a small table per claim, only for a page or an export's rows
  sql<string | null>`(SELECT email FROM staff_accounts WHERE staff_accounts.id = claims.assignee_id)`.as(
    'assignee_email',
  ),
  'claims.intake_id',
  'claims.attribution',
  'claims.fraud_score',
  'claims.fraud_cleared_at',
] as const

/**
 * A claim's CLAIM_LIST_COLUMNS as values, in that order: how the SQLite export reads its pages
 * (sqliteValueRows), with no object built per claim.
 */
export type SubmissionValues = [
  id: ClaimListRow['id'],
  createdAt: ClaimListRow['created_at'],
  firstName: ClaimListRow['first_name'],
  lastName: ClaimListRow['last_name'],
  email: ClaimListRow['email'],
  phoneNumber: ClaimListRow['phone_number'],
  cashAdvanceCount: ClaimListRow['cash_advance_count'],
  membershipMonths: ClaimListRow['membership_months'],
  locale: ClaimListRow['locale'],
  confirmedAt: ClaimListRow['confirmed_at'],
  reviewStatus: ClaimListRow['review_status'],
  reviewReason: ClaimListRow['review_reason'],
  reviewMovedAt: ClaimListRow['review_moved_at'],
  assigneeId: ClaimListRow['assignee_id'],
  assigneeEmail: ClaimListRow['assignee_email'],
  intakeId: ClaimListRow['intake_id'],
  attribution: ClaimListRow['attribution'],
  fraudScore: ClaimListRow['fraud_score'],
  fraudClearedAt: ClaimListRow['fraud_cleared_at'],
]

/** A page of a dashboard's list: its rows, how many claims match, and how many the app has. */
export interface ClaimsPage {
  rows: ClaimListRow[]
  count: number
  /** The count stopped early (countLimit): more than `count` claims match. */
  isCountCapped: boolean
  total: number
}

/**
 * How many matches a page's count reads at most: MATCH_COUNT_CAP past the page's start (a whole page
 * when that is more), and one more, which tells whether any lie past the cap.
 */
export function countLimit({ offset, pageSize }: { offset: number; pageSize: number }): number {
  return offset + Math.max(MATCH_COUNT_CAP, pageSize) + 1
}

/**
 * The count of a page whose matches were counted up to countLimit: past the cap it stops there, a lower
 * bound that still reaches past the page, so the list offers the next one.
 */
export function cappedCount(
  counted: number,
  { offset, pageSize }: { offset: number; pageSize: number },
): Pick<ClaimsPage, 'count' | 'isCountCapped'> {
  const limit = countLimit({ offset, pageSize })
  return counted >= limit
    ? { count: limit - 1, isCountCapped: true }
    : { count: counted, isCountCapped: false }
}

/** The staff's view of an app's claims, one implementation per database (claim-search.ts picks it). */
export interface ClaimSearch {
  /** One page of the claims matching the term (all of them without one), in the order asked. */
  page(query: {
    app: string
    term: SearchTerm | undefined
    order: ListOrder
    /**
     * Only claims flagged for a duplicate screenshot. Not one of the filters: those claims are read from
     * screenshot_matches (a few in a million), not by a condition on claims, and no counter holds them.
     */
    flagged: boolean
    filters: readonly ClaimFilter[]
    page: number
    pageSize: number
    /** With `flagged`: only claims with a duplicate in these apps (those of the account that asks). */
    visibleApps: VisibleApps
  }): Promise<ClaimsPage>
  /**
   * Every claim matching the term, newest first, as a CSV body with this origin in the screenshot links;
   * its Flagged columns (and `flagged`) take only the duplicates in `visibleApps` (those of the account
   * that exports).
   */
  exportBody(query: {
    app: string
    term: SearchTerm | undefined
    flagged: boolean
    filters: readonly ClaimFilter[]
    origin: string
    visibleApps: VisibleApps
  }): CsvBody<ClaimListRow>
  /**
   * The ids of every claim the list shows for this term and these filters (all its pages), as a
   * parenthesised subquery selecting `id`: what a bulk move of "the claims of the current filter" takes.
   */
  matchingIds(query: {
    app: string
    term: SearchTerm | undefined
    flagged: boolean
    filters: readonly ClaimFilter[]
    visibleApps: VisibleApps
  }): Promise<RawBuilder<{ id: number }>>
}

/** An app's claim count, kept by the claim_app_totals triggers. */
export async function appTotal(db: Kysely<Database>, app: string): Promise<number> {
  const row = await db
    .selectFrom('claim_app_totals')
    .select('claims')
    .where('app', '=', app)
    .executeTakeFirst()
  return Number(row?.claims ?? 0)
}

/**
 * A page of an app's claims with no search, newest first; its count is the app's total, or with one
 * filter what the filter's counter leaves, exactly (several filters together, or one no counter keeps,
 * are counted as a search's matches, up to the cap).
 */
export async function unsearchedPage(
  db: Kysely<Database>,
  {
    app,
    filters,
    offset,
    pageSize,
    order,
  }: { app: string; filters: readonly ClaimFilter[]; offset: number; pageSize: number; order: ListOrder },
): Promise<ClaimsPage> {
  if (filters.length > 1 || (filters.length === 1 && !filters[0]!.count)) {
    const [found, total] = await Promise.all([
      matchingPage(db, { app, where: () => filtersHold(filters), offset, pageSize, order }),
      appTotal(db, app),
    ])
    return { ...found, total }
  }
  const [rows, total] = await Promise.all([
    db
      .selectFrom('claims')
      .where('claims.app', '=', app)
      .where(filtersHold(filters))
      .select(CLAIM_LIST_COLUMNS)
      .orderBy('claims.created_at', direction(order))
      .orderBy('claims.id', direction(order))
      .limit(pageSize)
      .offset(offset)
      .execute(),
    appTotal(db, app),
  ])
  return {
    rows,
    count: (await filteredCount(db, { app, filters, total })) ?? total,
    isCountCapped: false,
    total,
  }
}

/** A condition on an app's claims: the term as each database matches it. */
export type ClaimCondition = (eb: ExpressionBuilder<Database, 'claims'>) => Expression<SqlBool>

/**
 * A page of the app's claims meeting a condition, and their count up to the cap (cappedCount), from one
 * pass over the matches: the window count(*) OVER () runs over the matches' ids and dates only, and only
 * the page's rows are read in full. SQLite walks the matches in the list's order and stops at
 * countLimit. PostgreSQL reads every match before it orders them (a term's from its trigram index), so
 * it counts them all and the cap applies after: a LIMIT on the matches could lead its planner to walk
 * the date index instead, testing the term row after row (for a rare one, every claim of the app).
 */
export async function matchingPage(
  db: Kysely<Database>,
  {
    app,
    where,
    offset,
    pageSize,
    order,
  }: { app: string; where: ClaimCondition; offset: number; pageSize: number; order: ListOrder },
): Promise<Omit<ClaimsPage, 'total'>> {
  const matching = db.selectFrom('claims').where('claims.app', '=', app).where(where)
  const limit = countLimit({ offset, pageSize })
  const matches = matching.select(['claims.id as counted_id', 'claims.created_at as counted_created_at'])
  const found = await db
    .with('counted', () =>
      isPostgresDb(db)
        ? matches
        : matches
            .orderBy('claims.created_at', direction(order))
            .orderBy('claims.id', direction(order))
            .limit(limit),
    )
    .with('page', (qb) =>
      qb
        .selectFrom('counted')
        .select([
          'counted.counted_id as page_id',
          'counted.counted_created_at as page_created_at',
          sql<number | string | bigint>`count(*) OVER ()`.as('match_count'),
        ])
        .orderBy('counted.counted_created_at', direction(order))
        .orderBy('counted.counted_id', direction(order))
        .limit(pageSize)
        .offset(offset),
    )
    .selectFrom('page')
    .innerJoin('claims', 'claims.id', 'page.page_id')
    .select([...CLAIM_LIST_COLUMNS, 'page.match_count'])
    .orderBy('page.page_created_at', direction(order))
    .orderBy('page.page_id', direction(order))
    .execute()
  const rows = found.map(({ match_count: _count, ...row }) => row)
  if (found.length > 0) return { rows, ...cappedCount(Number(found[0]!.match_count), { offset, pageSize }) }
  if (offset === 0) return { rows, count: 0, isCountCapped: false }
  // a page past the last match has no row to carry the count, and fewer matches than its start to count
  const { count } = await matching
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .executeTakeFirstOrThrow()
  return { rows, count: Number(count), isCountCapped: false }
}

/** SQL's direction for a list's order by date or id (withScoreOrder serves `score` before it gets here). */
export function direction(order: ListOrder): 'asc' | 'desc' {
  return order === 'oldest' ? 'asc' : 'desc'
}

/** What the screenshot route needs of a claim: its app (for the audit entry) and its file. */
export async function findClaimScreenshot(db: Kysely<Database>, id: number) {
  return db
    .selectFrom('claims')
    .select(['app', 'screenshot_key', 'screenshot_type'])
    .where('id', '=', id)
    .executeTakeFirst()
}
