import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * staff_accounts.totp_last_step: the 30-second time step of the last code an account signed in with.
 * A code is accepted only for a later step, so a code seen over someone's shoulder (or replayed from a
 * captured request) cannot be used a second time, even within its minute of validity.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('staff_accounts')
    .addColumn('totp_last_step', isPostgresDb(db) ? 'bigint' : 'integer')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('staff_accounts').dropColumn('totp_last_step').execute()
}
