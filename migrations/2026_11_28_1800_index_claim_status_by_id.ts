import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * SQLite: a search with a status filter tests each match of the search index by its id
 * (filtersHoldForId); this index answers "is claim N in this status" from its own small pages instead
 * of each claim's row, which a common surname's thousands of matches would otherwise read one by one.
 * PostgreSQL filters the matched rows themselves and has no use for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgresDb(db)) return
  await sql`CREATE INDEX claims_id_status ON claims (id, review_status)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgresDb(db)) return
  await sql`DROP INDEX claims_id_status`.execute(db)
}
