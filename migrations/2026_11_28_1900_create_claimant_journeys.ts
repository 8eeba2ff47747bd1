import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * A claimant across the steps. claims.intake_id: the main-form intake a Step 2 claim belongs to (the
 * one its signed link named, else the intake with the claim's e-mail and phone); existing claims are
 * tied by that match. claimant_journeys: per intake, the e-mails sent after it (the copy with the Step 2
 * links, then the reminders) and when the next is due; intakes from before it get no reminders.
 * email_suppressions: addresses that unsubscribed from reminders. reminder_windows: reminders sent
 * per minute, which every server process counts against the one rate.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const time = postgres ? 'bigint' : 'integer'
  await db.schema.alterTable('claims').addColumn('intake_id', 'bigint').execute()
  await sql`UPDATE claims SET intake_id = (SELECT f.id FROM form_submissions f WHERE f.email = claims.email AND f.phone = claims.phone_number)`.execute(
    db,
  )
  await sql`CREATE INDEX claims_by_intake ON claims (intake_id, app) WHERE intake_id IS NOT NULL`.execute(db)
  await db.schema
    .createTable('claimant_journeys')
    .addColumn('intake_id', 'bigint', (col) => col.primaryKey())
    .addColumn('created_at', time, (col) => col.notNull())
    // 0: nothing sent; 1: the e-mail after the intake; 2 and on: that many reminders + 1
    .addColumn('mails_sent', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('next_due_at', time)
    .addColumn('last_mail_at', time)
    // the claimant's state's time zone, for the hours reminders may go out in
    .addColumn('time_zone', 'text', (col) => col.notNull())
    // the site's origin as the claimant reached it, for the links (PUBLIC_URL wins when set)
    .addColumn('link_origin', 'text', (col) => col.notNull())
    .execute()
  await sql`CREATE INDEX claimant_journeys_due ON claimant_journeys (next_due_at) WHERE next_due_at IS NOT NULL`.execute(
    db,
  )
  await db.schema
    .createTable('email_suppressions')
    .addColumn('email', 'text', (col) => col.primaryKey())
    .addColumn('created_at', time, (col) => col.notNull())
    // 'link' (the unsubscribe page) or 'one-click' (the mail program's button, RFC 8058)
    .addColumn('source', 'text', (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('reminder_windows')
    .addColumn('minute', time, (col) => col.primaryKey())
    .addColumn('sent', 'integer', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('reminder_windows').execute()
  await db.schema.dropTable('email_suppressions').execute()
  await db.schema.dropTable('claimant_journeys').execute()
  await sql`DROP INDEX claims_by_intake`.execute(db)
  await db.schema.alterTable('claims').dropColumn('intake_id').execute()
}
