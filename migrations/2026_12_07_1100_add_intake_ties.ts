import { sql, type Kysely } from 'kysely'

/**
 * What ties a claim to a main-form intake. claims.intake_id names the intake of the same e-mail and
 * phone, or the one whose Step 2 link the claim came through (intake_by_link = 1). Only the link, or the
 * intake's confirmation from the claimant's e-mail, makes its address the claim's (batch-claims.ts):
 * anyone can send an intake with someone's e-mail and phone. A disowned intake ("This wasn't me") leaves
 * its e-mail and phone free for the real claimant's, so the duplicate rule's unique index counts only
 * intakes not disowned.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('claims')
    .addColumn('intake_by_link', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  await db.schema.dropIndex('form_submissions_email_phone_unique').execute()
  await sql`CREATE UNIQUE INDEX form_submissions_email_phone_unique ON form_submissions (email, phone) WHERE disowned_at IS NULL`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('form_submissions_email_phone_unique').execute()
  await db.schema
    .createIndex('form_submissions_email_phone_unique')
    .on('form_submissions')
    .columns(['email', 'phone'])
    .unique()
    .execute()
  await db.schema.alterTable('claims').dropColumn('intake_by_link').execute()
}
