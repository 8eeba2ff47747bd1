import { sql, type Kysely } from 'kysely'

/**
 * The agreement lookup finds a claimant's intakes by e-mail and phone, the disowned ones too (the page
 * lists them as such). The one index on those columns is partial (WHERE disowned_at IS NULL, so a
 * disowned intake frees the pair: migration 2026_12_07_1100), which neither SQLite nor PostgreSQL uses
 * for a query without that condition: each lookup read every intake. This one serves it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`CREATE INDEX form_submissions_by_contact ON form_submissions (email, phone)`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`DROP INDEX form_submissions_by_contact`.execute(db)
}
