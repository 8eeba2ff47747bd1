import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/** Staff sign-in: the admin password's hash, sessions shared by every server process, and the audit log. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await db.schema
    .createTable('admin_credentials')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('staff_sessions')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('created_at', postgres ? 'bigint' : 'integer', (col) => col.notNull())
    .addColumn('expires_at', postgres ? 'bigint' : 'integer', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('staff_sessions_expires_at').on('staff_sessions').column('expires_at').execute()
  await db.schema
    .createTable('audit_log')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('at', postgres ? 'timestamptz' : 'text', (col) => col.notNull())
    .addColumn('client_address', 'text', (col) => col.notNull())
    .addColumn('app', 'text')
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('detail', 'text')
    .execute()
  await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute()
  await db.schema.dropTable('staff_sessions').execute()
  await db.schema.dropTable('admin_credentials').execute()
}
