import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * Notice and filing batches (server/filing/filing-batches.ts). filing_batches: one row a batch, its
 * kind, who built it, its build's lease (the process building it and until when), and once built its
 * ZIP's key, size and hashes; a notice batch also how and when it was sent. filing_batch_claims: the
 * claims in it, each with its row ID (filing batches: the provider's unique ID and the demand's file
 * name) and the case number the provider gave. claims.notice_batch_id and claims.filing_batch_id name
 * the one notice batch a claim is in and the one open filing batch: a conditional update on them is
 * what keeps a claim out of two.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const time = postgres ? 'bigint' : 'integer'
  const id = postgres ? 'bigint' : 'integer'
  await db.schema
    .createTable('filing_batches')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) => col.primaryKey())
    .addColumn('app', 'text', (col) => col.notNull())
    // notice or filing
    .addColumn('kind', 'text', (col) => col.notNull())
    // building, ready or failed
    .addColumn('status', 'text', (col) => col.notNull())
    .addColumn('problem', 'text')
    .addColumn('provider', 'text')
    .addColumn('claim_count', 'integer', (col) => col.notNull())
    .addColumn('created_at', time, (col) => col.notNull())
    .addColumn('account_id', 'integer', (col) => col.notNull())
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('client_address', 'text', (col) => col.notNull())
    .addColumn('link_origin', 'text', (col) => col.notNull())
    .addColumn('lease_owner', 'text')
    .addColumn('lease_until', time)
    .addColumn('file_key', 'text')
    .addColumn('bytes', 'bigint')
    .addColumn('sha256', 'text')
    .addColumn('batch_hash', 'text')
    // notice batches: the day it went out (YYYY-MM-DD), how, and the certified number or reference
    .addColumn('sent_on', 'text')
    .addColumn('sent_method', 'text')
    .addColumn('sent_tracking', 'text')
    .execute()
  await sql`CREATE INDEX filing_batches_app ON filing_batches (app, id)`.execute(db)
  await sql`CREATE INDEX filing_batches_building ON filing_batches (id) WHERE status = 'building'`.execute(db)
  await db.schema
    .createTable('filing_batch_claims')
    .addColumn('batch_id', id, (col) => col.notNull().references('filing_batches.id'))
    .addColumn('claim_id', id, (col) => col.notNull())
    .addColumn('row_id', 'text')
    .addColumn('case_number', 'text')
    .addPrimaryKeyConstraint('filing_batch_claims_pk', ['batch_id', 'claim_id'])
    .execute()
  await db.schema
    .createIndex('filing_batch_claims_claim')
    .on('filing_batch_claims')
    .column('claim_id')
    .execute()
  await db.schema.alterTable('claims').addColumn('notice_batch_id', id).execute()
  await db.schema.alterTable('claims').addColumn('filing_batch_id', id).execute()
  await db.schema.alterTable('claims').addColumn('case_number', 'text').execute()
  // the dashboards' filters by batch and by case number
  await sql`CREATE INDEX claims_filing_batch ON claims (app, filing_batch_id) WHERE filing_batch_id IS NOT NULL`.execute(
    db,
  )
  await sql`CREATE INDEX claims_notice_batch ON claims (app, notice_batch_id) WHERE notice_batch_id IS NOT NULL`.execute(
    db,
  )
  await sql`CREATE INDEX claims_case_number ON claims (app, case_number) WHERE case_number IS NOT NULL`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('claims_case_number').execute()
  await db.schema.dropIndex('claims_filing_batch').execute()
  await db.schema.dropIndex('claims_notice_batch').execute()
  for (const column of ['case_number', 'filing_batch_id', 'notice_batch_id']) {
    await db.schema.alterTable('claims').dropColumn(column).execute()
  }
  await db.schema.dropTable('filing_batch_claims').execute()
  await db.schema.dropTable('filing_batches').execute()
}
