import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * evidence_digests: the days the admins were e-mailed the evidence ledger's head (evidence-digest.ts).
 * Its key makes the digest once a day however many server processes share the database.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('evidence_digests')
    .addColumn('day', 'text', (col) => col.primaryKey())
    .addColumn('sent_at', isPostgresDb(db) ? 'bigint' : 'integer', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('evidence_digests').execute()
}
