import type { Kysely } from 'kysely'

/** A claim or intake on legal hold is never purged, whatever its age. */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['claims', 'form_submissions']) {
    await db.schema
      .alterTable(table)
      .addColumn('legal_hold', 'integer', (col) => col.notNull().defaultTo(0))
      .execute()
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['claims', 'form_submissions']) {
    await db.schema.alterTable(table).dropColumn('legal_hold').execute()
  }
}
