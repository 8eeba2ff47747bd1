import type { Kysely } from 'kysely'

/**
 * Which way each signature was made: drawn on the pad, or the full name typed and drawn in a signature
 * style (kept as typed). Every signature before this was drawn.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const table of ['agreement_records', 'form_submissions']) {
    await db.schema
      .alterTable(table)
      .addColumn('signature_method', 'text', (col) => col.notNull().defaultTo('drawn'))
      .execute()
    await db.schema.alterTable(table).addColumn('typed_signature', 'text').execute()
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['agreement_records', 'form_submissions']) {
    await db.schema.alterTable(table).dropColumn('typed_signature').execute()
    await db.schema.alterTable(table).dropColumn('signature_method').execute()
  }
}
