import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/** Phones that replied STOP to a text reminder (stored as the forms store them, "(808) 555-0100"). */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sms_suppressions')
    .addColumn('phone', 'text', (col) => col.primaryKey())
    .addColumn('created_at', isPostgresDb(db) ? 'bigint' : 'integer', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sms_suppressions').execute()
}
