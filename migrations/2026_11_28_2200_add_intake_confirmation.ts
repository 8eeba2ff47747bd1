import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * The e-mail after a main-form intake asks, like a Step 2 copy, to confirm it came from the inbox it
 * names: form_submissions.confirmed_* (when, from where, in what browser; null until then) and
 * disowned_* ("This wasn't me"), and intake_confirmation_links with the links' tokens, only their
 * SHA-256, removed with their intake.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const time = postgres ? 'bigint' : 'integer'
  await db.schema
    .alterTable('form_submissions')
    .addColumn('confirmed_at', postgres ? 'timestamptz' : 'text')
    .execute()
  await db.schema.alterTable('form_submissions').addColumn('confirmed_ip', 'text').execute()
  await db.schema.alterTable('form_submissions').addColumn('confirmed_user_agent', 'text').execute()
  await db.schema.alterTable('form_submissions').addColumn('disowned_at', time).execute()
  await db.schema.alterTable('form_submissions').addColumn('disowned_ip', 'text').execute()
  await db.schema.alterTable('form_submissions').addColumn('disowned_user_agent', 'text').execute()
  await db.schema
    .createTable('intake_confirmation_links')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('intake_id', postgres ? 'bigint' : 'integer', (col) =>
      col.notNull().references('form_submissions.id').onDelete('cascade'),
    )
    .addColumn('issued_at', 'bigint', (col) => col.notNull())
    .execute()
  // a purge removes an intake's links by this
  await db.schema
    .createIndex('intake_confirmation_links_intake')
    .on('intake_confirmation_links')
    .column('intake_id')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('intake_confirmation_links').execute()
  for (const column of [
    'disowned_user_agent',
    'disowned_ip',
    'disowned_at',
    'confirmed_user_agent',
    'confirmed_ip',
    'confirmed_at',
  ]) {
    await db.schema.alterTable('form_submissions').dropColumn(column).execute()
  }
}
