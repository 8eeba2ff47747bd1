import type { Kysely } from 'kysely'

/**
 * The language a claimant used: staff see it on each claim, and the signed record keeps it beside the
 * exact text shown. Rows from before there was a choice were English.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['claims', 'agreement_records', 'form_submissions']) {
    await db.schema
      .alterTable(table)
      .addColumn('locale', 'text', (col) => col.notNull().defaultTo('en'))
      .execute()
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['claims', 'agreement_records', 'form_submissions']) {
    await db.schema.alterTable(table).dropColumn('locale').execute()
  }
}
