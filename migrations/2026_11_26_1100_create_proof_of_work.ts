import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * The proof-of-work check on the public forms (server/proof-of-work/): the key its challenges are
 * signed with, one row every server process over the database shares, and the solved challenges
 * already spent, so a replayed one is refused by whichever process it reaches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await db.schema
    .createTable('proof_of_work_keys')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('hmac_key', 'text', (col) => col.notNull())
    .addColumn('created_at', 'text', (col) => col.notNull())
    .execute()
  await db.schema
    .createTable('proof_of_work_spent')
    .addColumn('challenge', 'text', (col) => col.primaryKey())
    .addColumn('expires_at', postgres ? 'bigint' : 'integer', (col) => col.notNull())
    .execute()
  await db.schema
    .createIndex('proof_of_work_spent_expires_at')
    .on('proof_of_work_spent')
    .column('expires_at')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('proof_of_work_spent').execute()
  await db.schema.dropTable('proof_of_work_keys').execute()
}
