import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

// SQLite has no regexp_replace; phones are stored formatted by formatPhone ('(555) 123-4567'), and these
// are the separators a phone can carry
const SQLITE_DIGITS = (column: string) =>
  sql.raw(
    `replace(replace(replace(replace(replace(replace(${column}, ' ', ''), '(', ''), ')', ''), '-', ''), '.', ''), '+', '')`,
  )

/**
 * Substring search over a claim's email, phone, names and the phone's digits, served by an index:
 * SQLite FTS5 with the trigram tokenizer (a contentless table kept in sync by triggers), PostgreSQL pg_trgm.
 * Plus (app, id) for the export's keyset pages.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('claims_app_id').on('claims').columns(['app', 'id']).execute()
  if (isPostgresDb(db)) {
    await sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`.execute(db)
    await sql`CREATE INDEX claims_email_trgm ON claims USING gin (lower(email) gin_trgm_ops)`.execute(db)
    await sql`CREATE INDEX claims_first_name_trgm ON claims USING gin (lower(first_name) gin_trgm_ops)`.execute(
      db,
    )
    await sql`CREATE INDEX claims_last_name_trgm ON claims USING gin (lower(last_name) gin_trgm_ops)`.execute(
      db,
    )
    await sql`CREATE INDEX claims_phone_number_trgm ON claims USING gin (phone_number gin_trgm_ops)`.execute(
      db,
    )
    await sql`
      CREATE INDEX claims_phone_digits_trgm ON claims
      USING gin ((regexp_replace(phone_number, '[^0-9]', '', 'g')) gin_trgm_ops)`.execute(db)
    return
  }
  // contentless: the text stays in claims; contentless_delete lets the triggers remove a row by its id
  await sql`
    CREATE VIRTUAL TABLE claims_search USING fts5(
      email, phone_number, first_name, last_name, phone_digits,
      content='', contentless_delete=1, tokenize='trigram'
    )`.execute(db)
  const insertNew = sql`
    INSERT INTO claims_search (rowid, email, phone_number, first_name, last_name, phone_digits)
    VALUES (new.id, new.email, new.phone_number, new.first_name, new.last_name, ${SQLITE_DIGITS('new.phone_number')});`
  await sql`
    CREATE TRIGGER claims_search_insert AFTER INSERT ON claims BEGIN
      ${insertNew}
    END`.execute(db)
  await sql`
    CREATE TRIGGER claims_search_delete AFTER DELETE ON claims BEGIN
      DELETE FROM claims_search WHERE rowid = old.id;
    END`.execute(db)
  await sql`
    CREATE TRIGGER claims_search_update AFTER UPDATE OF id, email, phone_number, first_name, last_name ON claims
    BEGIN
      DELETE FROM claims_search WHERE rowid = old.id;
      ${insertNew}
    END`.execute(db)
  await sql`
    INSERT INTO claims_search (rowid, email, phone_number, first_name, last_name, phone_digits)
    SELECT id, email, phone_number, first_name, last_name, ${SQLITE_DIGITS('phone_number')} FROM claims`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgresDb(db)) {
    for (const index of [
      'claims_phone_digits_trgm',
      'claims_phone_number_trgm',
      'claims_last_name_trgm',
      'claims_first_name_trgm',
      'claims_email_trgm',
    ]) {
      await db.schema.dropIndex(index).execute()
    }
  } else {
    for (const trigger of ['claims_search_update', 'claims_search_delete', 'claims_search_insert']) {
      await sql`DROP TRIGGER ${sql.id(trigger)}`.execute(db)
    }
    await sql`DROP TABLE claims_search`.execute(db)
  }
  await db.schema.dropIndex('claims_app_id').execute()
}
