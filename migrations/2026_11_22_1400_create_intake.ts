import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * The main intake (form_submissions) and one case row per chosen app (intake_cases). Booleans are
 * 0/1 integers in both dialects. The duplicate rule is a unique index on the normalised e-mail and phone.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const id = postgres ? 'bigserial' : 'integer'
  await db.schema
    .createTable('form_submissions')
    .addColumn('id', id, (col) => (postgres ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('created_at', postgres ? 'timestamptz' : 'text', (col) => col.notNull())
    .addColumn('cash_advance_apps', 'text', (col) => col.notNull())
    .addColumn('fees_incurred', 'text', (col) => col.notNull())
    .addColumn('is_over_18', 'integer', (col) => col.notNull())
    .addColumn('is_active_military', 'integer', (col) => col.notNull())
    .addColumn('has_bankruptcy', 'integer', (col) => col.notNull())
    .addColumn('first_name', 'text', (col) => col.notNull())
    .addColumn('last_name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('address_line_2', 'text', (col) => col.notNull())
    .addColumn('city', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('zip_code', 'text', (col) => col.notNull())
    .addColumn('signature', 'text', (col) => col.notNull())
    .addColumn('consent_agreed', 'integer', (col) => col.notNull())
    .addColumn('communications_consent', 'integer', (col) => col.notNull())
    .addColumn('consent_version', 'text', (col) => col.notNull())
    .addColumn('consent_text', 'text', (col) => col.notNull())
    .addColumn('communications_consent_text', 'text', (col) => col.notNull())
    .execute()
  await db.schema
    .createIndex('form_submissions_email_phone_unique')
    .on('form_submissions')
    .columns(['email', 'phone'])
    .unique()
    .execute()
  await db.schema
    .createIndex('form_submissions_created_at')
    .on('form_submissions')
    .column('created_at')
    .execute()
  await db.schema
    .createIndex('form_submissions_military')
    .on('form_submissions')
    .column('is_active_military')
    .execute()

  await db.schema
    .createTable('intake_cases')
    .addColumn('id', id, (col) => (postgres ? col.primaryKey() : col.primaryKey().autoIncrement()))
    .addColumn('original_submission_id', postgres ? 'bigint' : 'integer', (col) =>
      col.notNull().references('form_submissions.id').onDelete('cascade'),
    )
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('created_at', postgres ? 'timestamptz' : 'text', (col) => col.notNull())
    .addColumn('first_name', 'text', (col) => col.notNull())
    .addColumn('last_name', 'text', (col) => col.notNull())
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('phone', 'text', (col) => col.notNull())
    .addColumn('address', 'text', (col) => col.notNull())
    .addColumn('address_line_2', 'text', (col) => col.notNull())
    .addColumn('city', 'text', (col) => col.notNull())
    .addColumn('state', 'text', (col) => col.notNull())
    .addColumn('zip_code', 'text', (col) => col.notNull())
    .addColumn('fees_incurred', 'text', (col) => col.notNull())
    .addColumn('is_over_18', 'integer', (col) => col.notNull())
    .addColumn('is_active_military', 'integer', (col) => col.notNull())
    .addColumn('has_bankruptcy', 'integer', (col) => col.notNull())
    .addColumn('signature', 'text', (col) => col.notNull())
    .addColumn('consent_agreed', 'integer', (col) => col.notNull())
    .addUniqueConstraint('intake_cases_submission_app_unique', ['original_submission_id', 'app'])
    .execute()
  await db.schema.createIndex('intake_cases_app').on('intake_cases').columns(['app', 'created_at']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('intake_cases').execute()
  await db.schema.dropTable('form_submissions').execute()
}
