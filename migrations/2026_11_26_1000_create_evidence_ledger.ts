import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

const PURGE_ONLY = 'a signed record is removed only by purge-expired, after its purge entry in the ledger'

/**
 * The evidence ledger, the screenshot's hash each claim's seal covers, and what the database refuses:
 * any change to or removal of a ledger entry, and the removal or replacement of a signed record but by
 * purge-expired (which first writes the record's purge entry into the ledger).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await db.schema
    .createTable('evidence_ledger')
    .addColumn('seq', postgres ? 'bigint' : 'integer', (col) => col.primaryKey())
    .addColumn('at', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('subject', 'text', (col) => col.notNull())
    .addColumn('seal', 'text', (col) => col.notNull())
    .addColumn('seal_hmac', 'text', (col) => col.notNull())
    .addColumn('detail', 'text', (col) => col.notNull())
    .addColumn('prev_hash', 'text', (col) => col.notNull())
    .addColumn('hash', 'text', (col) => col.notNull())
    .addColumn('hmac', 'text', (col) => col.notNull())
    .execute()
  await db.schema.createIndex('evidence_ledger_subject').on('evidence_ledger').column('subject').execute()
  await db.schema
    .alterTable('claims')
    .addColumn('screenshot_sha256', 'text', (col) => col.notNull().defaultTo(''))
    .execute()

  if (postgres) {
    await sql`
      CREATE FUNCTION evidence_refuse() RETURNS trigger AS $$
      BEGIN
        RAISE EXCEPTION '% entries are permanent', TG_TABLE_NAME;
      END;
      $$ LANGUAGE plpgsql`.execute(db)
    await sql`
      CREATE TRIGGER evidence_ledger_permanent BEFORE UPDATE OR DELETE ON evidence_ledger
      FOR EACH ROW EXECUTE FUNCTION evidence_refuse()`.execute(db)
    await sql`
      CREATE FUNCTION agreement_records_purge_only() RETURNS trigger AS $$
      BEGIN
        IF NOT EXISTS (
          SELECT 1 FROM evidence_ledger WHERE subject = 'claim:' || OLD.claim_id AND kind = 'purge'
        ) THEN
          RAISE EXCEPTION '${sql.raw(PURGE_ONLY)}';
        END IF;
        RETURN OLD;
      END;
      $$ LANGUAGE plpgsql`.execute(db)
    await sql`
      CREATE TRIGGER agreement_records_purge_only BEFORE DELETE ON agreement_records
      FOR EACH ROW EXECUTE FUNCTION agreement_records_purge_only()`.execute(db)
    for (const table of ['evidence_ledger', 'agreement_records']) {
      await sql`
        CREATE TRIGGER ${sql.id(`${table}_no_truncate`)} BEFORE TRUNCATE ON ${sql.table(table)}
        FOR EACH STATEMENT EXECUTE FUNCTION evidence_refuse()`.execute(db)
    }
    return
  }
  await sql`
    CREATE TRIGGER evidence_ledger_no_update BEFORE UPDATE ON evidence_ledger
    BEGIN
      SELECT RAISE(ABORT, 'evidence_ledger entries are permanent');
    END`.execute(db)
  await sql`
    CREATE TRIGGER evidence_ledger_no_delete BEFORE DELETE ON evidence_ledger
    BEGIN
      SELECT RAISE(ABORT, 'evidence_ledger entries are permanent');
    END`.execute(db)
  // INSERT OR REPLACE removes the row it replaces without running delete triggers: refused before it can
  await sql`
    CREATE TRIGGER evidence_ledger_no_replace BEFORE INSERT ON evidence_ledger
    WHEN EXISTS (SELECT 1 FROM evidence_ledger WHERE seq = NEW.seq)
    BEGIN
      SELECT RAISE(ABORT, 'evidence_ledger entries are permanent');
    END`.execute(db)
  await sql`
    CREATE TRIGGER agreement_records_purge_only BEFORE DELETE ON agreement_records
    WHEN NOT EXISTS (
      SELECT 1 FROM evidence_ledger WHERE subject = 'claim:' || OLD.claim_id AND kind = 'purge'
    )
    BEGIN
      SELECT RAISE(ABORT, '${sql.raw(PURGE_ONLY)}');
    END`.execute(db)
  await sql`
    CREATE TRIGGER agreement_records_no_replace BEFORE INSERT ON agreement_records
    WHEN EXISTS (SELECT 1 FROM agreement_records WHERE claim_id = NEW.claim_id OR id = NEW.id)
    BEGIN
      SELECT RAISE(ABORT, 'agreement records are immutable');
    END`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  if (postgres) {
    await sql`DROP TRIGGER agreement_records_purge_only ON agreement_records`.execute(db)
    await sql`DROP TRIGGER agreement_records_no_truncate ON agreement_records`.execute(db)
    await sql`DROP FUNCTION agreement_records_purge_only()`.execute(db)
  } else {
    await sql`DROP TRIGGER agreement_records_purge_only`.execute(db)
    await sql`DROP TRIGGER agreement_records_no_replace`.execute(db)
  }
  await db.schema.alterTable('claims').dropColumn('screenshot_sha256').execute()
  await db.schema.dropTable('evidence_ledger').execute()
  if (postgres) await sql`DROP FUNCTION evidence_refuse()`.execute(db)
}
