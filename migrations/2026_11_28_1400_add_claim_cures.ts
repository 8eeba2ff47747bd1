import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * What a claim's review needs beyond its status. On claims: the reason and time of the last move and
 * the reviewer it is assigned to, which the dashboards filter and export. claim_cures: each move to a
 * curable status (deficient) opens one, with its period, the notices sent and its end; each notice
 * sent has its own link in claim_cure_links (stored hashed). claim_amendments: what a claimant sent to cure a deficient claim, each a
 * sealed record naming the record it amends; the claim's own row and record never change.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  const time = postgres ? 'bigint' : 'integer'
  await db.schema.alterTable('claims').addColumn('review_reason', 'text').execute()
  await db.schema.alterTable('claims').addColumn('review_moved_at', time).execute()
  await db.schema.alterTable('claims').addColumn('assignee_id', 'integer').execute()
  await db.schema
    .createTable('claim_cures')
    // the move to a curable status that opened it
    .addColumn('id', 'bigint', (col) => col.primaryKey())
    .addColumn('claim_id', 'bigint', (col) => col.notNull())
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('started_at', time, (col) => col.notNull())
    .addColumn('expires_at', time, (col) => col.notNull())
    .addColumn('notices_sent', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('ended_at', time)
    // the site's origin as the reviewer reached it, for the links (PUBLIC_URL wins when set)
    .addColumn('link_origin', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('claim_cures_by_claim').on('claim_cures').column('claim_id').execute()
  // the loop's question: which open cures are due a notice, a reminder or their end
  await sql`CREATE INDEX claim_cures_open ON claim_cures (expires_at) WHERE ended_at IS NULL`.execute(db)
  await db.schema
    .createTable('claim_cure_links')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('cure_id', 'bigint', (col) => col.notNull())
    .addColumn('issued_at', time, (col) => col.notNull())
    .addColumn('opened_at', time)
    .execute()
  await db.schema.createIndex('claim_cure_links_by_cure').on('claim_cure_links').column('cure_id').execute()
  await db.schema
    .createTable('claim_amendments')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) => col.primaryKey())
    .addColumn('claim_id', 'bigint', (col) => col.notNull())
    .addColumn('app', 'text', (col) => col.notNull())
    // 'claim' or 'amendment', its id and seal: the record this one amends
    .addColumn('amends_kind', 'text', (col) => col.notNull())
    .addColumn('amends_id', 'bigint', (col) => col.notNull())
    .addColumn('amends_seal', 'text', (col) => col.notNull())
    .addColumn('reasons', 'text', (col) => col.notNull())
    .addColumn('fields', 'text')
    .addColumn('screenshot_key', 'text')
    .addColumn('screenshot_type', 'text')
    .addColumn('screenshot_sha256', 'text')
    .addColumn('signature', 'text')
    .addColumn('signature_method', 'text')
    .addColumn('amended_at', 'text', (col) => col.notNull())
    .addColumn('ip_address', 'text', (col) => col.notNull())
    .addColumn('user_agent', 'text', (col) => col.notNull())
    .addColumn('locale', 'text', (col) => col.notNull())
    .execute()
  await db.schema
    .createIndex('claim_amendments_by_claim')
    .on('claim_amendments')
    .columns(['claim_id', 'id'])
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('claim_amendments').execute()
  await db.schema.dropTable('claim_cure_links').execute()
  await db.schema.dropTable('claim_cures').execute()
  await db.schema.alterTable('claims').dropColumn('assignee_id').execute()
  await db.schema.alterTable('claims').dropColumn('review_moved_at').execute()
  await db.schema.alterTable('claims').dropColumn('review_reason').execute()
}
