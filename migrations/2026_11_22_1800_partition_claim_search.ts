import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'
import { SEARCH_PARTITION as PARTITION } from '../server/db/search-partition.ts'

const DIGITS = (column: string) =>
  `replace(replace(replace(replace(replace(replace(${column}, ' ', ''), '(', ''), ')', ''), '-', ''), '.', ''), '+', '')`

/**
 * SQLite's search index, partitioned by app: a claim's entry in claims_search has the rowid
 * appNumber × 2^40 + id (claim_search_apps numbers the apps), so one app's matches are one rowid range.
 * FTS5 seeks that range in its match lists: a search counts and pages one app's matches, newest id
 * first, without reading a claim row to check its app. PostgreSQL's pg_trgm indexes are unchanged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (isPostgresDb(db)) return
  await sql`CREATE TABLE claim_search_apps (app TEXT PRIMARY KEY, number INTEGER NOT NULL UNIQUE)`.execute(db)
  for (const trigger of ['claims_search_update', 'claims_search_delete', 'claims_search_insert']) {
    await sql`DROP TRIGGER ${sql.id(trigger)}`.execute(db)
  }
  await sql`DROP TABLE claims_search`.execute(db)
  await createSearchTable(db)
  const key = (row: 'new' | 'old') =>
    `(SELECT number FROM claim_search_apps WHERE app = ${row}.app) * ${PARTITION} + ${row}.id`
  const insertNew = sql.raw(`
    INSERT OR IGNORE INTO claim_search_apps (app, number)
    VALUES (new.app, (SELECT coalesce(max(number), 0) + 1 FROM claim_search_apps));
    INSERT INTO claims_search (rowid, email, phone_number, first_name, last_name, phone_digits)
    VALUES (${key('new')}, new.email, new.phone_number, new.first_name, new.last_name, ${DIGITS('new.phone_number')});`)
  const deleteOld = sql.raw(`DELETE FROM claims_search WHERE rowid = ${key('old')};`)
  await sql`CREATE TRIGGER claims_search_insert AFTER INSERT ON claims BEGIN ${insertNew} END`.execute(db)
  await sql`CREATE TRIGGER claims_search_delete AFTER DELETE ON claims BEGIN ${deleteOld} END`.execute(db)
  await sql`
    CREATE TRIGGER claims_search_update
    AFTER UPDATE OF id, app, email, phone_number, first_name, last_name ON claims
    BEGIN ${deleteOld} ${insertNew} END`.execute(db)
  await sql`
    INSERT INTO claim_search_apps (app, number)
    SELECT app, row_number() OVER (ORDER BY app) FROM (SELECT DISTINCT app FROM claims)`.execute(db)
  await sql`
    INSERT INTO claims_search (rowid, email, phone_number, first_name, last_name, phone_digits)
    SELECT claim_search_apps.number * ${sql.raw(String(PARTITION))} + claims.id, email, phone_number,
      first_name, last_name, ${sql.raw(DIGITS('phone_number'))}
    FROM claims JOIN claim_search_apps ON claim_search_apps.app = claims.app`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (isPostgresDb(db)) return
  for (const trigger of ['claims_search_update', 'claims_search_delete', 'claims_search_insert']) {
    await sql`DROP TRIGGER ${sql.id(trigger)}`.execute(db)
  }
  await sql`DROP TABLE claims_search`.execute(db)
  await sql`DROP TABLE claim_search_apps`.execute(db)
  await createSearchTable(db)
  const insertNew = sql.raw(`
    INSERT INTO claims_search (rowid, email, phone_number, first_name, last_name, phone_digits)
    VALUES (new.id, new.email, new.phone_number, new.first_name, new.last_name, ${DIGITS('new.phone_number')});`)
  await sql`CREATE TRIGGER claims_search_insert AFTER INSERT ON claims BEGIN ${insertNew} END`.execute(db)
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
    SELECT id, email, phone_number, first_name, last_name, ${sql.raw(DIGITS('phone_number'))} FROM claims`.execute(
    db,
  )
}

/** The FTS5 table itself, the same before and after the partitioning (only its rowids change). */
async function createSearchTable(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE VIRTUAL TABLE claims_search USING fts5(
      email, phone_number, first_name, last_name, phone_digits,
      content='', contentless_delete=1, tokenize='trigram'
    )`.execute(db)
}
