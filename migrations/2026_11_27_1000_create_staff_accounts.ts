import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * Named staff accounts in place of the one shared password.
 *
 * - staff_accounts: one row per person; e-mail kept lower-case and unique. password_hash is null until
 *   the person accepts their invitation. totp_secret is set once two-factor sign-in is on.
 * - totp_pending_secret: a secret shown as a QR code and not yet confirmed with a code.
 * - staff_recovery_codes: ten one-time codes per account with two-factor sign-in, only their SHA-256.
 * - staff_invites: one-time links (only their SHA-256) that let a person set their password; an invite
 *   without an account is the first admin's set-up link of a fresh install.
 * - staff_account_apps: the apps a `staff` account may see, each with or without export rights; an
 *   `admin` sees every app and needs no rows here.
 * - staff_sessions: recreated with the account they belong to and when they were last used (the idle
 *   timeout). The shared password's sessions belong to nobody, so they end here.
 * - audit_log.account_id / actor: who did it; actor is the account's e-mail at the time, so the log still
 *   names the person after the account changes.
 * - admin_credentials (the shared password) goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const time = postgres ? 'bigint' : 'integer'
  await db.schema
    .createTable('staff_accounts')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('email', 'text', (col) => col.notNull().unique())
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role IN ('admin', 'staff')`))
    .addColumn('password_hash', 'text')
    .addColumn('totp_secret', 'text')
    .addColumn('totp_pending_secret', 'text')
    .addColumn('disabled_at', time)
    .addColumn('created_at', time, (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('staff_account_apps')
    .addColumn('account_id', postgres ? 'bigint' : 'integer', (col) =>
      col.notNull().references('staff_accounts.id').onDelete('cascade'),
    )
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('can_export', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('staff_account_apps_pk', ['account_id', 'app'])
    .execute()
  await db.schema
    .createTable('staff_recovery_codes')
    .addColumn('account_id', postgres ? 'bigint' : 'integer', (col) =>
      col.notNull().references('staff_accounts.id').onDelete('cascade'),
    )
    .addColumn('code_hash', 'text', (col) => col.notNull())
    .addColumn('used_at', time)
    .addPrimaryKeyConstraint('staff_recovery_codes_pk', ['account_id', 'code_hash'])
    .execute()
  await db.schema
    .createTable('staff_invites')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('account_id', postgres ? 'bigint' : 'integer', (col) =>
      col.references('staff_accounts.id').onDelete('cascade'),
    )
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('expires_at', time, (col) => col.notNull())
    .addColumn('used_at', time)
    .execute()
  await db.schema.dropTable('staff_sessions').execute()
  await db.schema
    .createTable('staff_sessions')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('account_id', postgres ? 'bigint' : 'integer', (col) =>
      col.notNull().references('staff_accounts.id').onDelete('cascade'),
    )
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('expires_at', time, (col) => col.notNull())
    .addColumn('last_seen_at', time, (col) => col.notNull())
    .execute()
  await db.schema.createIndex('staff_sessions_expires_at').on('staff_sessions').column('expires_at').execute()
  // ending every session of an account (password, role or apps changed, account disabled)
  await db.schema.createIndex('staff_sessions_account').on('staff_sessions').column('account_id').execute()
  await db.schema
    .alterTable('audit_log')
    .addColumn('account_id', postgres ? 'bigint' : 'integer')
    .execute()
  await db.schema.alterTable('audit_log').addColumn('actor', 'text').execute()
  await db.schema.dropTable('admin_credentials').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await db.schema
    .createTable('admin_credentials')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema.alterTable('audit_log').dropColumn('actor').execute()
  await db.schema.alterTable('audit_log').dropColumn('account_id').execute()
  await db.schema.dropTable('staff_sessions').execute()
  await db.schema
    .createTable('staff_sessions')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('created_at', postgres ? 'bigint' : 'integer', (col) => col.notNull())
    .addColumn('expires_at', postgres ? 'bigint' : 'integer', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('staff_sessions_expires_at').on('staff_sessions').column('expires_at').execute()
  await db.schema.dropTable('staff_invites').execute()
  await db.schema.dropTable('staff_recovery_codes').execute()
  await db.schema.dropTable('staff_account_apps').execute()
  await db.schema.dropTable('staff_accounts').execute()
}
