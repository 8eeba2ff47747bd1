import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely'
import type { Database } from '../db/database.ts'
import { appStatusCount } from './status-counts.ts'

/**
 * One filter of an app's claims on the dashboards (parse-claim-filters.ts reads them from the query):
 * a condition on the claims row, served by an index, and where the database keeps one, a counter of the
 * claims it holds for, so that a filtered list stays an index walk and its count a lookup at a million
 * claims.
 */
export interface ClaimFilter {
  /** How the export's audit line names it: 'confirmed', 'not confirmed', 'status in_review'. */
  label: string
  /** The condition, on claims (columns named claims.x). */
  holds: RawBuilder<SqlBool>
  /**
   * A partial index lists the claims it holds for (or, with `is: false`, those it does not), few enough
   * to test an id against the list; other filters test an id by reading its row.
   */
  listed?: { holds: RawBuilder<SqlBool>; is: boolean }
  /** How many of the app's claims it holds for (`total`: the app's), from a counter; left out without one. */
  count?(db: Kysely<Database>, app: string, total: number): Promise<number>
}

/** ?confirmed=yes|no, served by claims_app_confirmed and counted by claim_app_confirmed (migration 2026_11_26_1300). */
export function confirmedFilter(is: boolean): ClaimFilter {
  const confirmed = sql<SqlBool>`claims.confirmed_at IS NOT NULL`
  return {
    label: is ? 'confirmed' : 'not confirmed',
    holds: is ? confirmed : sql<SqlBool>`NOT (${confirmed})`,
    listed: { holds: confirmed, is },
    async count(db, app, total) {
      const row = await db
        .selectFrom('claim_app_confirmed')
        .select('confirmed')
        .where('app', '=', app)
        .executeTakeFirst()
      const count = Number(row?.confirmed ?? 0)
      return is ? count : total - count
    },
  }
}

/** ?confirmed=disowned: "This wasn't me", served by claims_app_disowned (migration 2026_11_28_2000). */
export function disownedFilter(): ClaimFilter {
  const disowned = sql<SqlBool>`claims.disowned_at IS NOT NULL`
  return { label: 'not me', holds: disowned, listed: { holds: disowned, is: true } }
}

/** ?status=, served by claims_app_status and counted by claim_app_statuses (migration 2026_11_28_1500). */
export function statusFilter(status: string): ClaimFilter {
  return {
    label: `status ${status}`,
    holds: sql<SqlBool>`claims.review_status = ${status}`,
    count: (db, app, total) => appStatusCount(db, { app, status, total }),
  }
}

/** The filters as one condition on claims; true without any. */
export function filtersHold(filters: readonly ClaimFilter[]): RawBuilder<SqlBool> {
  if (filters.length === 0) return sql<SqlBool>`1 = 1`
  return sql<SqlBool>`(${sql.join(
    filters.map(({ holds }) => holds),
    sql` AND `,
  )})`
}

/**
 * The filters over ids rather than rows (SQLite's search index gives ids): each id is, or is not, among
 * the app's claims a listed filter's partial index lists; the other filters read the id's row once.
 */
export function filtersHoldForId(
  filters: readonly ClaimFilter[],
  { app, id }: { app: string; id: RawBuilder<unknown> },
): RawBuilder<SqlBool> {
  const conditions = filters.flatMap(({ listed }) =>
    listed
      ? [
          sql<SqlBool>`${id} ${sql.raw(listed.is ? 'IN' : 'NOT IN')} (SELECT id FROM claims WHERE claims.app = ${app} AND ${listed.holds})`,
        ]
      : [],
  )
  const onRow = filters.filter(({ listed }) => !listed)
  if (onRow.length > 0) {
    conditions.push(
      sql<SqlBool>`EXISTS (SELECT 1 FROM claims WHERE claims.id = ${id} AND ${filtersHold(onRow)})`,
    )
  }
  if (conditions.length === 0) return sql<SqlBool>`1 = 1`
  return sql<SqlBool>`(${sql.join(conditions, sql` AND `)})`
}

/**
 * How many of the app's claims one filter leaves, from its counter (`total` is the app's); undefined
 * for several filters together, or one no counter keeps.
 */
export async function filteredCount(
  db: Kysely<Database>,
  { app, filters, total }: { app: string; filters: readonly ClaimFilter[]; total: number },
): Promise<number | undefined> {
  if (filters.length !== 1) return undefined
  const [filter] = filters as [ClaimFilter]
  return filter.count?.(db, app, total)
}
