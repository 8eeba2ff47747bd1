import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * Confirmed claimants: the e-mail copy of a signed agreement carries a link that confirms the claim
 * came from the inbox it names.
 *
 * - claims.confirmed_at / confirmed_ip / confirmed_user_agent: when, from where and in what browser the
 *   link was confirmed (null until then).
 * - claim_confirmation_links: the links' tokens, only their SHA-256; one per e-mail sent, so a copy sent
 *   again after a failure leaves the first one's link working too.
 * - agreement_copies.link_origin: the site's origin the claim came in through, for the link when
 *   PUBLIC_URL is unset (the copy is sent later, with no request to ask).
 * - claim_app_confirmed: each app's count of confirmed claims, kept by triggers, so the dashboards read
 *   the share and the filter's count without counting rows.
 * - claims_app_confirmed: the confirmed claims of an app newest first, for the dashboard's filter; a
 *   partial index, so a new (unconfirmed) claim's insert does not maintain it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await db.schema
    .alterTable('claims')
    .addColumn('confirmed_at', postgres ? 'timestamptz' : 'text')
    .execute()
  await db.schema.alterTable('claims').addColumn('confirmed_ip', 'text').execute()
  await db.schema.alterTable('claims').addColumn('confirmed_user_agent', 'text').execute()
  await db.schema.alterTable('agreement_copies').addColumn('link_origin', 'text').execute()
  await db.schema
    .createTable('claim_confirmation_links')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('claim_id', postgres ? 'bigint' : 'integer', (col) =>
      col.notNull().references('claims.id').onDelete('cascade'),
    )
    .addColumn('issued_at', 'bigint', (col) => col.notNull())
    .execute()
  // a purge removes a claim's links by this
  await db.schema
    .createIndex('claim_confirmation_links_claim')
    .on('claim_confirmation_links')
    .column('claim_id')
    .execute()
  await sql`
    CREATE INDEX claims_app_confirmed ON claims (app, created_at, id) WHERE confirmed_at IS NOT NULL`.execute(
    db,
  )
  await db.schema
    .createTable('claim_app_confirmed')
    .addColumn('app', 'text', (col) => col.primaryKey())
    .addColumn('confirmed', 'bigint', (col) => col.notNull())
    .execute()
  if (postgres) await createPostgresTriggers(db)
  else await createSqliteTriggers(db)
}

/** SQLite: a claim counts once it is first confirmed, and stops counting when it is removed. */
async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE TRIGGER claim_confirmed_count AFTER UPDATE OF confirmed_at ON claims
    WHEN old.confirmed_at IS NULL AND new.confirmed_at IS NOT NULL
    BEGIN
      INSERT INTO claim_app_confirmed (app, confirmed) VALUES (new.app, 1)
      ON CONFLICT (app) DO UPDATE SET confirmed = confirmed + 1;
    END`.execute(db)
  await sql`
    CREATE TRIGGER claim_confirmed_uncount AFTER DELETE ON claims WHEN old.confirmed_at IS NOT NULL
    BEGIN
      UPDATE claim_app_confirmed SET confirmed = confirmed - 1 WHERE app = old.app;
    END`.execute(db)
}

/**
 * PostgreSQL: a row trigger for a confirmation (one claim at a time), and a statement trigger over the
 * removed rows for a purge, which can remove many at once.
 */
async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  await sql`
    CREATE FUNCTION claim_confirmed_count() RETURNS trigger AS $$
    BEGIN
      INSERT INTO claim_app_confirmed AS c (app, confirmed) VALUES (NEW.app, 1)
      ON CONFLICT (app) DO UPDATE SET confirmed = c.confirmed + 1;
      RETURN NULL;
    END;
    $$ LANGUAGE plpgsql`.execute(db)
  await sql`
    CREATE TRIGGER claim_confirmed_count AFTER UPDATE OF confirmed_at ON claims FOR EACH ROW
    WHEN (OLD.confirmed_at IS NULL AND NEW.confirmed_at IS NOT NULL)
    EXECUTE FUNCTION claim_confirmed_count()`.execute(db)
  await sql`
    CREATE FUNCTION claim_confirmed_uncount() RETURNS trigger AS $$
    BEGIN
      UPDATE claim_app_confirmed AS c SET confirmed = c.confirmed - g.removed
      FROM (
        SELECT app, count(*) AS removed FROM old_rows WHERE confirmed_at IS NOT NULL GROUP BY app ORDER BY app
      ) AS g
      WHERE c.app = g.app;
      RETURN NULL;
    END;
    $$ LANGUAGE plpgsql`.execute(db)
  await sql`
    CREATE TRIGGER claim_confirmed_uncount AFTER DELETE ON claims
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION claim_confirmed_uncount()`.execute(
    db,
  )
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  for (const trigger of ['claim_confirmed_count', 'claim_confirmed_uncount']) {
    await sql`DROP TRIGGER ${sql.id(trigger)}${postgres ? sql` ON claims` : sql``}`.execute(db)
    if (postgres) await sql`DROP FUNCTION ${sql.id(trigger)}()`.execute(db)
  }
  await db.schema.dropTable('claim_app_confirmed').execute()
  await sql`DROP INDEX claims_app_confirmed`.execute(db)
  await db.schema.dropTable('claim_confirmation_links').execute()
  await db.schema.alterTable('agreement_copies').dropColumn('link_origin').execute()
  for (const column of ['confirmed_user_agent', 'confirmed_ip', 'confirmed_at']) {
    await db.schema.alterTable('claims').dropColumn(column).execute()
  }
}
