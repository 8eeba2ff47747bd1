import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * staff_accounts.totp_setup_code_hash / _expires_at: the code e-mailed to an account that REQUIRE_2FA
 * covers and that has no two-factor sign-in yet (only its SHA-256). The QR code is shown only to whoever
 * gives it with the password, so knowing the password alone is not enough to tie the account to one's
 * own authenticator app.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('staff_accounts').addColumn('totp_setup_code_hash', 'text').execute()
  await db.schema
    .alterTable('staff_accounts')
    .addColumn('totp_setup_code_expires_at', isPostgresDb(db) ? 'bigint' : 'integer')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('staff_accounts').dropColumn('totp_setup_code_expires_at').execute()
  await db.schema.alterTable('staff_accounts').dropColumn('totp_setup_code_hash').execute()
}
