import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * PostgreSQL: one trigram index over a stored search text (the names, e-mail and phone, lowercased,
 * joined by a unit separator no typed term holds, so a match never spans two fields) instead of one
 * per field. A search then scans one index and rechecks one LIKE per candidate row, and a claim
 * updates one index rather than four. The phone-digits index stays. SQLite's FTS5 table is unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (!isPostgresDb(db)) return
  await sql`
    ALTER TABLE claims ADD COLUMN search_text text GENERATED ALWAYS AS (
      lower(first_name || E'\\x1f' || last_name || E'\\x1f' || email || E'\\x1f' || phone_number)
    ) STORED`.execute(db)
  await sql`CREATE INDEX claims_search_text_trgm ON claims USING gin (search_text gin_trgm_ops)`.execute(db)
  await sql`DROP INDEX claims_email_trgm, claims_first_name_trgm, claims_last_name_trgm, claims_phone_number_trgm`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (!isPostgresDb(db)) return
  for (const [name, expression] of [
    ['claims_email_trgm', 'lower(email)'],
    ['claims_first_name_trgm', 'lower(first_name)'],
    ['claims_last_name_trgm', 'lower(last_name)'],
    ['claims_phone_number_trgm', 'phone_number'],
  ] as const) {
    await sql`CREATE INDEX ${sql.id(name)} ON claims USING gin ((${sql.raw(expression)}) gin_trgm_ops)`.execute(
      db,
    )
  }
  await sql`ALTER TABLE claims DROP COLUMN search_text`.execute(db)
}
