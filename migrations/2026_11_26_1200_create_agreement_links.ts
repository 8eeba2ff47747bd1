import { sql, type Kysely } from 'kysely'

/**
 * The one-time links that open a claimant's agreements, and the download keys an opened link gives.
 * Only a token's SHA-256 is kept: a copy of the database opens nothing.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('agreement_links')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    // 'link': e-mailed, opened once; 'download': given by an opened link, used until it expires
    .addColumn('purpose', 'text', (col) => col.notNull())
    // the contact the lookup matched, normalised as the lookup compares it
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('phone_numbers', 'text', (col) => col.notNull())
    // epoch ms
    .addColumn('created_at', 'bigint', (col) => col.notNull())
    .addColumn('expires_at', 'bigint', (col) => col.notNull())
    .addColumn('used_at', 'bigint')
    .execute()
  await db.schema.createIndex('agreement_links_expires').on('agreement_links').column('expires_at').execute()
  // how many unused links one address already holds (a flood of links to one inbox stops there)
  await sql`CREATE INDEX agreement_links_email ON agreement_links (email) WHERE used_at IS NULL`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('agreement_links').execute()
}
