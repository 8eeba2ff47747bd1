import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await db.schema
    .createTable('claims')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('created_at', postgres ? 'timestamptz' : 'text', (col) => col.notNull())
    .addColumn('first_name', 'text', (col) => col.notNull())
    .addColumn('last_name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('phone_number', 'text', (col) => col.notNull())
    .addColumn('cash_advance_count', 'integer', (col) => col.notNull())
    .addColumn('membership_months', 'integer', (col) => col.notNull())
    .addColumn('screenshot_key', 'text', (col) => col.notNull())
    .addColumn('screenshot_type', 'text', (col) => col.notNull())
    .addColumn('signature', 'text', (col) => col.notNull())
    .execute()
  // one claim per phone per app, enforced by the database so that concurrent submissions cannot both pass
  await db.schema
    .createIndex('claims_app_phone_unique')
    .on('claims')
    .columns(['app', 'phone_number'])
    .unique()
    .execute()
  await db.schema.createIndex('claims_app_created_at').on('claims').columns(['app', 'created_at']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('claims').execute()
}
