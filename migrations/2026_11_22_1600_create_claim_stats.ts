import { sql, type Kysely } from 'kysely'
import { isPostgresDb } from '../server/db/dialect.ts'

/**
 * Per-app counters, kept by triggers in the same transaction as the claim, so that the dashboards read
 * an app's total, averages and claims per day without counting its rows (a million of them for a big
 * campaign). Every insert, delete (purge-expired) and update of claims goes through them.
 *
 * Also drops claims.signature: the signed record (agreement_records.signature) keeps the same drawing,
 * and the copy in claims made every row several kilobytes wide for every scan of the table.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = isPostgresDb(db)
  await db.schema
    .createTable('claim_app_totals')
    .addColumn('app', 'text', (col) => col.primaryKey())
    .addColumn('claims', 'bigint', (col) => col.notNull())
    .addColumn('membership_months_sum', 'bigint', (col) => col.notNull())
    .addColumn('cash_advance_count_sum', 'bigint', (col) => col.notNull())
    .execute()
  // day: the claim's UTC day, YYYY-MM-DD
  await db.schema
    .createTable('claim_app_days')
    .addColumn('app', 'text', (col) => col.notNull())
    .addColumn('day', 'text', (col) => col.notNull())
    .addColumn('claims', 'bigint', (col) => col.notNull())
    .addPrimaryKeyConstraint('claim_app_days_pk', ['app', 'day'])
    .execute()

  if (postgres) await createPostgresTriggers(db)
  else await createSqliteTriggers(db)

  const day = postgres
    ? sql`to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD')`
    : sql`substr(created_at, 1, 10)`
  await sql`
    INSERT INTO claim_app_totals (app, claims, membership_months_sum, cash_advance_count_sum)
    SELECT app, count(*), sum(membership_months), sum(cash_advance_count) FROM claims GROUP BY app`.execute(
    db,
  )
  await sql`
    INSERT INTO claim_app_days (app, day, claims)
    SELECT app, ${day}, count(*) FROM claims GROUP BY app, ${day}`.execute(db)

  await db.schema.alterTable('claims').dropColumn('signature').execute()
}

/** SQLite: a row trigger per change, each an upsert into the two tables. */
async function createSqliteTriggers(db: Kysely<unknown>): Promise<void> {
  const add = (row: 'new' | 'old', sign: '+' | '-') =>
    sql.raw(`
      INSERT INTO claim_app_totals (app, claims, membership_months_sum, cash_advance_count_sum)
      VALUES (${row}.app, ${sign}1, ${sign}${row}.membership_months, ${sign}${row}.cash_advance_count)
      ON CONFLICT (app) DO UPDATE SET
        claims = claims + excluded.claims,
        membership_months_sum = membership_months_sum + excluded.membership_months_sum,
        cash_advance_count_sum = cash_advance_count_sum + excluded.cash_advance_count_sum;
      INSERT INTO claim_app_days (app, day, claims)
      VALUES (${row}.app, substr(${row}.created_at, 1, 10), ${sign}1)
      ON CONFLICT (app, day) DO UPDATE SET claims = claims + excluded.claims;`)
  await sql`CREATE TRIGGER claim_stats_insert AFTER INSERT ON claims BEGIN ${add('new', '+')} END`.execute(db)
  await sql`CREATE TRIGGER claim_stats_delete AFTER DELETE ON claims BEGIN ${add('old', '-')} END`.execute(db)
  await sql`
    CREATE TRIGGER claim_stats_update
    AFTER UPDATE OF app, created_at, membership_months, cash_advance_count ON claims
    BEGIN ${add('old', '-')} ${add('new', '+')} END`.execute(db)
}

/**
 * PostgreSQL: statement triggers over the transition tables, so a multi-row insert or a purge
 * updates each counter once per statement rather than once per row. Counters are touched in (app, day)
 * order, so concurrent statements lock them in the same order.
 */
async function createPostgresTriggers(db: Kysely<unknown>): Promise<void> {
  const apply = (rows: 'new_rows' | 'old_rows', sign: '+' | '-') => `
      INSERT INTO claim_app_totals AS t (app, claims, membership_months_sum, cash_advance_count_sum)
      SELECT app, ${sign}count(*), ${sign}sum(membership_months), ${sign}sum(cash_advance_count)
      FROM ${rows} GROUP BY app ORDER BY app
      ON CONFLICT (app) DO UPDATE SET
        claims = t.claims + excluded.claims,
        membership_months_sum = t.membership_months_sum + excluded.membership_months_sum,
        cash_advance_count_sum = t.cash_advance_count_sum + excluded.cash_advance_count_sum;
      INSERT INTO claim_app_days AS d (app, day, claims)
      SELECT app, to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD'), ${sign}count(*)
      FROM ${rows} GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (app, day) DO UPDATE SET claims = d.claims + excluded.claims;`
  await sql
    .raw(
      `
    CREATE FUNCTION claim_stats_apply() RETURNS trigger AS $$
    BEGIN
      IF TG_OP IN ('DELETE', 'UPDATE') THEN ${apply('old_rows', '-')}
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN ${apply('new_rows', '+')}
      END IF;
      RETURN NULL;
    END;
    $$ LANGUAGE plpgsql`,
    )
    .execute(db)
  await sql`
    CREATE TRIGGER claim_stats_insert AFTER INSERT ON claims
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION claim_stats_apply()`.execute(db)
  await sql`
    CREATE TRIGGER claim_stats_delete AFTER DELETE ON claims
    REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION claim_stats_apply()`.execute(db)
  await sql`
    CREATE TRIGGER claim_stats_update AFTER UPDATE ON claims
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION claim_stats_apply()`.execute(db)
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const trigger of ['claim_stats_update', 'claim_stats_delete', 'claim_stats_insert']) {
    await sql`DROP TRIGGER ${sql.id(trigger)}${isPostgresDb(db) ? sql` ON claims` : sql``}`.execute(db)
  }
  if (isPostgresDb(db)) await sql`DROP FUNCTION claim_stats_apply()`.execute(db)
  // the signatures come back from the signed records (every claim the product took has one)
  await db.schema
    .alterTable('claims')
    .addColumn('signature', 'text', (col) => col.notNull().defaultTo(''))
    .execute()
  await sql`
    UPDATE claims SET signature = coalesce(
      (SELECT signature FROM agreement_records WHERE agreement_records.claim_id = claims.id), '')`.execute(db)
  await db.schema.dropTable('claim_app_days').execute()
  await db.schema.dropTable('claim_app_totals').execute()
}
