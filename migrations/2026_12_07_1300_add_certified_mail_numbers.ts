import type { Kysely } from 'kysely'

/**
 * Each claimant's own certified mail number in a sent notice batch (server/filing/certified-mail-numbers.ts):
 * certified mail is one piece a claimant, each with its own number, imported from the post office's CSV.
 * The batch's one number (filing_batches.sent_tracking) stays for plain mail and e-mail.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('filing_batch_claims').addColumn('tracking_number', 'varchar(100)').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('filing_batch_claims').dropColumn('tracking_number').execute()
}
