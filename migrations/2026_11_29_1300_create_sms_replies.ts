import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * The SMS provider's message id of each STOP or START reply honoured, so a webhook replayed with the
 * same id (the provider retrying, or someone who captured a signed request) changes nothing twice.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sms_replies')
    .addColumn('message_sid', 'text', (col) => col.primaryKey())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('created_at', isPostgresDb(db) ? 'bigint' : 'integer', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sms_replies').execute()
}
