import type { Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * A claim's review (forms/base/review.json): its status, and a version counted up by every move so
 * that two reviewers moving one claim at once cannot both win. Existing claims start 'received', as new
 * ones do (a constant default: neither database rewrites the table to add it). claim_moves keeps every
 * move, who made it and why; staff_account_apps.can_decide is the right to approve and reject.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const time = isPostgresDb(db) ? 'bigint' : 'integer'
  await db.schema
    .alterTable('claims')
    .addColumn('review_status', 'text', (col) => col.notNull().defaultTo('received'))
    .execute()
  await db.schema
    .alterTable('claims')
    .addColumn('review_version', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  await db.schema
    .alterTable('staff_account_apps')
    .addColumn('can_decide', 'integer', (col) => col.notNull().defaultTo(0))
    .execute()
  await db.schema
    .createTable('claim_moves')
    .addColumn('id', isPostgresDb(db) ? 'bigserial' : 'integer', (col) => col.primaryKey())
    .addColumn('claim_id', 'bigint', (col) => col.notNull())
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('at', time, (col) => col.notNull())
    .addColumn('from_status', 'text', (col) => col.notNull())
    .addColumn('to_status', 'text', (col) => col.notNull())
    .addColumn('reason', 'text')
    .addColumn('reason_text', 'text')
    .addColumn('note', 'text')
    .addColumn('account_id', 'integer')
    .addColumn('actor', 'text')
    .addColumn('audit_id', 'bigint')
    .execute()
  await db.schema.createIndex('claim_moves_by_claim').on('claim_moves').columns(['claim_id', 'id']).execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('claim_moves').execute()
  await db.schema.alterTable('staff_account_apps').dropColumn('can_decide').execute()
  await db.schema.alterTable('claims').dropColumn('review_version').execute()
  await db.schema.alterTable('claims').dropColumn('review_status').execute()
}
