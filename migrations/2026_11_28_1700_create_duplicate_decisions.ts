import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * A reviewer's "not a duplicate" decision on a flagged pair (server/review/duplicate-decision.ts): the
 * pair's two screenshot_matches rows move here, so the claims stop being flagged for it and the match
 * itself (kind, distance) stays on record beside who decided, when, and the audit entry sealing it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const idType = postgres ? 'bigint' : 'integer'
  await db.schema
    .createTable('duplicate_decisions')
    .addColumn('claim_id', idType, (col) => col.notNull().references('claims.id').onDelete('cascade'))
    .addColumn('other_claim_id', idType, (col) => col.notNull().references('claims.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('distance', 'integer', (col) => col.notNull())
    .addColumn('decided_at', postgres ? 'bigint' : 'integer', (col) => col.notNull())
    .addColumn('account_id', 'integer', (col) => col.notNull())
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('audit_id', idType, (col) => col.notNull())
    .addPrimaryKeyConstraint('duplicate_decisions_pk', ['claim_id', 'other_claim_id'])
    .execute()
  await db.schema
    .createIndex('duplicate_decisions_other')
    .on('duplicate_decisions')
    .column('other_claim_id')
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('duplicate_decisions').execute()
}
