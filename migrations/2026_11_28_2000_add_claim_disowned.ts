import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * "This wasn't me": when the owner of a claim's e-mail said, from the copy's link, that they did not
 * file it (disowned_at, epoch ms), from where and in what browser. The dashboards' filter of such claims
 * walks a partial index of them, few among a million.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const time = isPostgresDb(db) ? 'bigint' : 'integer'
  await db.schema.alterTable('claims').addColumn('disowned_at', time).execute()
  await db.schema.alterTable('claims').addColumn('disowned_ip', 'text').execute()
  await db.schema.alterTable('claims').addColumn('disowned_user_agent', 'text').execute()
  await sql`CREATE INDEX claims_app_disowned ON claims (app, id) WHERE disowned_at IS NOT NULL`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX claims_app_disowned`.execute(db)
  await db.schema.alterTable('claims').dropColumn('disowned_user_agent').execute()
  await db.schema.alterTable('claims').dropColumn('disowned_ip').execute()
  await db.schema.alterTable('claims').dropColumn('disowned_at').execute()
}
