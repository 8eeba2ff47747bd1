import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * The single-use pre-fill tokens (a text reminder's) already spent, by the id each carries: the primary
 * key lets exactly one of two concurrent first uses insert it. A row outlives its token by nothing:
 * once `expires_at` has passed, the token is refused for its age and the row can go.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const time = isPostgresDb(db) ? 'bigint' : 'integer'
  await db.schema
    .createTable('used_prefill_tokens')
    .addColumn('token_id', 'text', (col) => col.primaryKey())
    .addColumn('expires_at', time, (col) => col.notNull())
    .addColumn('used_at', time, (col) => col.notNull())
    .execute()
  await db.schema
    .createIndex('used_prefill_tokens_expires_at')
    .on('used_prefill_tokens')
    .column('expires_at')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('used_prefill_tokens').execute()
}
