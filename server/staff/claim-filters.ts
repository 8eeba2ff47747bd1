import type { Request } from 'express'
import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely'
import { AppError } from '../../src/app-error.ts'
import type { Database } from '../db/database.ts'

/**
 * The dashboards' yes/no filters of an app's claims. Each is a condition on the claims row that a
 * partial index serves where it holds, and a counter of the claims it holds for, so that a filtered
 * list stays an index walk and its count a lookup at a million claims.
 */
interface ClaimFilterDefinition {
  /** The condition, on claims (columns named claims.x). */
  holds: RawBuilder<SqlBool>
  /** How many of the app's claims it holds for, from a counter the database keeps. */
  count(db: Kysely<Database>, app: string): Promise<number>
}

const CLAIM_FILTERS = {
  // served by claims_app_confirmed; counted by the claim_app_confirmed triggers (migration 1300)
  confirmed: {
    holds: sql<SqlBool>`claims.confirmed_at IS NOT NULL`,
    async count(db, app) {
      const row = await db
        .selectFrom('claim_app_confirmed')
        .select('confirmed')
        .where('app', '=', app)
        .executeTakeFirst()
      return Number(row?.confirmed ?? 0)
    },
  },
} satisfies Record<string, ClaimFilterDefinition>

export type ClaimFilterName = keyof typeof CLAIM_FILTERS

/** One filter chosen: the claims it holds for (`is: true`) or the others. */
export interface ClaimFilter {
  name: ClaimFilterName
  is: boolean
}

/** ?confirmed=yes|no: each filter's parameter; absent or empty is "all". */
export function parseClaimFilters(query: Request['query']): ClaimFilter[] {
  const filters: ClaimFilter[] = []
  for (const name of Object.keys(CLAIM_FILTERS) as ClaimFilterName[]) {
    const value = query[name]
    if (value === undefined || value === '') continue
    if (value !== 'yes' && value !== 'no') {
      throw new AppError('BAD_REQUEST', {
        status: 400,
        message: `"${name}" must be "yes" or "no" (or left out for all claims)`,
      })
    }
    filters.push({ name, is: value === 'yes' })
  }
  return filters
}

/** The filters as one condition on claims; true without any. */
export function filtersHold(filters: readonly ClaimFilter[]): RawBuilder<SqlBool> {
  if (filters.length === 0) return sql<SqlBool>`1 = 1`
  return sql<SqlBool>`(${sql.join(
    filters.map(({ name, is }) => (is ? CLAIM_FILTERS[name].holds : sql`NOT (${CLAIM_FILTERS[name].holds})`)),
    sql` AND `,
  )})`
}

/**
 * The filters over ids rather than rows (SQLite's search index gives ids): each id is, or is not, among
 * the app's claims the filter holds for, which its partial index lists.
 */
export function filtersHoldForId(
  filters: readonly ClaimFilter[],
  { app, id }: { app: string; id: RawBuilder<unknown> },
): RawBuilder<SqlBool> {
  if (filters.length === 0) return sql<SqlBool>`1 = 1`
  return sql<SqlBool>`(${sql.join(
    filters.map(
      ({ name, is }) =>
        sql`${id} ${sql.raw(is ? 'IN' : 'NOT IN')} (SELECT id FROM claims WHERE claims.app = ${app} AND ${CLAIM_FILTERS[name].holds})`,
    ),
    sql` AND `,
  )})`
}

/**
 * How many of the app's claims one filter leaves, from the counters (`total` is the app's); undefined
 * for several filters together, which no counter answers.
 */
export async function filteredCount(
  db: Kysely<Database>,
  { app, filters, total }: { app: string; filters: readonly ClaimFilter[]; total: number },
): Promise<number | undefined> {
  if (filters.length !== 1) return undefined
  const [{ name, is }] = filters as [ClaimFilter]
  const count = await CLAIM_FILTERS[name].count(db, app)
  return is ? count : total - count
}
