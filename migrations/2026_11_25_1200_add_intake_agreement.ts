import type { Kysely } from 'kysely'

/**
 * The main form's signed agreement, kept like a Step 2 claim's: the exact HTML the claimant was shown,
 * its SHA-256, the template version, and where it was signed from. Intakes from before have none ('').
 */
const COLUMNS = [
  'agreement_template',
  'agreement_template_version',
  'agreement_html',
  'agreement_sha256',
  'ip_address',
  'user_agent',
] as const

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) {
    await db.schema
      .alterTable('form_submissions')
      .addColumn(column, 'text', (col) => col.notNull().defaultTo(''))
      .execute()
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) {
    await db.schema.alterTable('form_submissions').dropColumn(column).execute()
  }
}
