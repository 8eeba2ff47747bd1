import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * staff_sign_in_failures: failed sign-ins (wrong passwords and codes) per e-mail address typed, wherever
 * they came from, and until when sign-in to it is paused (server/staff/sign-in-backoff.ts). Kept in the
 * database so every server process sharing it counts the same failures. Keyed by the SHA-256 of the
 * address, so addresses that name no account are counted too without being stored.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const time = isPostgresDb(db) ? 'bigint' : 'integer'
  await db.schema
    .createTable('staff_sign_in_failures')
    .addColumn('email_key', 'text', (col) => col.primaryKey())
    .addColumn('failures', 'integer', (col) => col.notNull())
    .addColumn('last_failure_at', time, (col) => col.notNull())
    .addColumn('paused_until', time)
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('staff_sign_in_failures').execute()
}
