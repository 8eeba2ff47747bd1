import type { Kysely } from 'kysely'

/**
 * A Step 2 claim's signature may be the one its claimant drew or typed on the main form, adopted with
 * one press (signature_method 'adopted'): its record names that intake ("IN-000042"), kept with the
 * record rather than read from the claim's intake_id, which "This wasn't me" clears.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('agreement_records').addColumn('adopted_from', 'text').execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('agreement_records').dropColumn('adopted_from').execute()
}
