import type { Kysely } from 'kysely'
import type { Database } from '../db/database.ts'
import { isPostgresDb } from '../db/dialect.ts'
import type { ClaimSearch } from './claim-list.ts'
import { postgresClaimSearch } from './postgres-claim-search.ts'
import { sqliteClaimSearch } from './sqlite-claim-search.ts'
import { withExactLookups } from './exact-claim-lookup.ts'
import { withScoreOrder } from './score-order.ts'

/**
 * The staff's list, search and export of an app's claims, for the database the server runs on: the
 * one place that asks which it is. Each database matches a term with its own index (SQLite's FTS5
 * trigram table, PostgreSQL's pg_trgm); both answer the same rows in the same order. A claim's id,
 * intake reference or case number is looked up exactly first (exact-claim-lookup.ts); the order by
 * fraud score is the same for both (score-order.ts).
 */
export function claimSearch(db: Kysely<Database>): ClaimSearch {
  const search = isPostgresDb(db) ? postgresClaimSearch(db) : sqliteClaimSearch(db)
  return withExactLookups(db, withScoreOrder(db, search))
}
