import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * The claimant's e-mailed copy of a signed agreement, queued in the claim's own transaction and sent in
 * the background: a crash or a mail server that is down delays the copy, it does not lose it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await db.schema
    .createTable('agreement_copies')
    .addColumn('claim_id', postgres ? 'bigint' : 'integer', (col) =>
      col.primaryKey().references('claims.id').onDelete('cascade'),
    )
    // epoch ms: when the copy is due (again); a sender holding it pushes this forward while it works
    .addColumn('due_at', 'bigint', (col) => col.notNull())
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('sent_at', 'bigint')
    .execute()
  await sql`CREATE INDEX agreement_copies_due ON agreement_copies (due_at) WHERE sent_at IS NULL`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('agreement_copies').execute()
}
