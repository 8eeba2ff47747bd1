import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/** The signed agreement kept with each claim, write-once, and the lookup and rate-limit support. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await db.schema
    .createTable('agreement_records')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (col) =>
      postgres ? col.primaryKey() : col.primaryKey().autoIncrement(),
    )
    .addColumn('claim_id', postgres ? 'bigint' : 'integer', (col) =>
      col.notNull().unique().references('claims.id').onDelete('cascade'),
    )
    .addColumn('template', 'text', (col) => col.notNull())
    .addColumn('template_version', 'text', (col) => col.notNull())
    .addColumn('html', 'text', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('signature', 'text', (col) => col.notNull())
    .addColumn('signed_at', postgres ? 'timestamptz' : 'text', (col) => col.notNull())
    .addColumn('ip_address', 'text', (col) => col.notNull())
    .addColumn('user_agent', 'text', (col) => col.notNull())
    .addColumn('consent_text', 'text', (col) => col.notNull())
    .execute()

  // a signed record never changes: the database itself refuses updates
  if (postgres) {
    await sql`
      CREATE FUNCTION agreement_records_refuse_update() RETURNS trigger AS $$
      BEGIN
        RAISE EXCEPTION 'agreement records are immutable';
      END;
      $$ LANGUAGE plpgsql`.execute(db)
    await sql`
      CREATE TRIGGER agreement_records_immutable BEFORE UPDATE ON agreement_records
      FOR EACH ROW EXECUTE FUNCTION agreement_records_refuse_update()`.execute(db)
  } else {
    await sql`
      CREATE TRIGGER agreement_records_immutable BEFORE UPDATE ON agreement_records
      BEGIN
        SELECT RAISE(ABORT, 'agreement records are immutable');
      END`.execute(db)
  }

  // the claimant's lookup: e-mail and phone together, across every app
  await db.schema.createIndex('claims_email_phone').on('claims').columns(['email', 'phone_number']).execute()

  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('window_started_at', postgres ? 'bigint' : 'integer', (col) => col.notNull())
    .addColumn('hits', 'integer', (col) => col.notNull())
    .execute()
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute()
  await db.schema.dropIndex('claims_email_phone').execute()
  await db.schema.dropTable('agreement_records').execute()
  if (isPostgresDb(db)) await sql`DROP FUNCTION agreement_records_refuse_update()`.execute(db)
}
